// Cacher: storage.Interface served from a watch cache (kube's cacher.go with delegator.go). Writes go
// to storage with the cache's copy as a hint; reads the cache can answer (see delegator.ts) wait for
// it to be fresh enough; watches are served from it and fanned out by the dispatcher.
import type { KubeList, KubeObject } from '../../api/meta.js';
import { StatusError } from '../../machinery/errors/index.js';
import { invalidResourceVersion } from '../api-errors.js';
import { keyNotFound } from '../errors.js';
import { encodedGet, encodedList } from '../encoded-reads.js';
import type {
  CachedExisting,
  CreateOptions,
  DeleteOptions,
  EncodedList,
  GetOptions,
  Interface,
  ListOptions,
  ObjectHistory,
  Revision,
  UpdateOptions,
  Versioner,
  Watch,
} from '../interfaces.js';
import { cacherParts, type CacherParts } from './cacher-parts.js';
import { listOnNotReadyCache, listRoute } from './delegator.js';
import { prepareKey } from './keys.js';
import { listFromCache, type CachedList } from './list-from-cache.js';
import { completeCacherConfig, type CacherConfig, type CompletedCacherConfig } from './options.js';
import { startWatch } from './start-watch.js';
import type { RecentWrites } from './recent-writes.js';
import { decodeElement, sharedDecode, type StoreElement } from './watch-cache-event.js';
import { servedJSONOf } from '../served-json.js';

/** A read at any revision the cache holds (getCachedNow's). */
const anyVersion: GetOptions = Object.freeze({ resourceVersion: '0' });

/** storage.ErrStorageNotReady. */
export const storageNotReadyMessage = 'storage not ready';

export interface CacherStats {
  readonly ready: boolean;
  readonly resourceVersion: number;
  readonly objects: number;
  readonly watchers: number;
  readonly windowCapacity: number;
  readonly windowSize: number;
  readonly dispatched: number;
  /** Offers of events to candidate watchers (what the watcher index narrowed dispatch to). */
  readonly offered: number;
  /** Watchers ended because their queues stayed full. */
  readonly terminated: number;
  readonly relists: number;
}

/** storage.IsTooLargeResourceVersion: the 504 a read gets when the cache did not catch up in time. */
function isTooLargeResourceVersion(err: unknown): boolean {
  if (!(err instanceof StatusError)) return false;
  return err.status.code === 504 && err.status.details?.causes?.[0]?.reason === 'ResourceVersionTooLarge';
}

export class Cacher<T extends KubeObject = KubeObject> implements Interface<T> {
  readonly #config: CompletedCacherConfig<T>;
  readonly #parts: CacherParts<T>;
  readonly #recent: RecentWrites<KubeObject>;
  #stopping: Promise<void> | null = null;

  constructor(config: CacherConfig<T>) {
    this.#config = completeCacherConfig(config);
    this.#parts = cacherParts(this.#config);
    this.#recent = this.#config.recentWrites;
    this.#parts.reflector.start();
  }

  get versioner(): Versioner {
    return this.#config.versioner;
  }

  /** Resolves once the first list has landed (rejects if the cacher stops first). */
  whenReady(): Promise<void> {
    return this.#parts.ready.wait();
  }

  /** Resolves once every change received from storage so far has been applied and dispatched. */
  whenIdle(): Promise<void> {
    return this.#parts.dispatcher.whenIdle();
  }

  stats(): CacherStats {
    const { ready, cache, index, dispatcher, reflector } = this.#parts;
    return {
      ready: ready.state === 'ready',
      resourceVersion: cache.resourceVersion,
      objects: cache.store.size,
      watchers: index.size,
      windowCapacity: cache.window.capacity,
      windowSize: cache.window.size,
      dispatched: dispatcher.dispatched,
      offered: dispatcher.offered,
      terminated: dispatcher.terminated,
      relists: reflector.failures,
    };
  }

  create(key: string, obj: T, opts?: CreateOptions): Promise<T> {
    return this.#config.storage.create(key, obj, opts);
  }

  /**
   * The cache's state of the object at `key`, a hint that spares storage a read (kube ignores the
   * caller's): the object a handed-over write left, if the cache holds that revision, else a decode.
   * Current when the cache has caught up with a local store's current revision.
   */
  #cached(key: string): CachedExisting<T> | undefined {
    let prepared: string;
    let el: StoreElement<T> | undefined;
    let current: boolean;
    try {
      prepared = prepareKey(this.#config.resourcePrefix, key, false);
      el = this.#parts.cache.store.get(prepared);
      current = this.#caughtUp();
    } catch {
      return undefined;
    }
    if (el === undefined) return undefined;
    const kept = this.#recent.take(prepared, el.resourceVersion) as T | undefined;
    const object = this.#recent.handedOut(kept ?? decodeElement(el)) as T;
    return { object, served: el.served, current };
  }

  /** Whether the cache is ready and has every write of a local store's current revision. */
  #caughtUp(): boolean {
    const { storage } = this.#config;
    if (storage.local !== true || this.#parts.ready.state !== 'ready') return false;
    const revision = storage.currentResourceVersionNow?.();
    return revision !== undefined && revision <= this.#parts.cache.resourceVersion;
  }

  /** Keeps a handed-over write's object for the next update of it; forgets the key's otherwise. */
  #written(key: string, object: T, handOver: boolean): T {
    let prepared: string;
    try {
      prepared = prepareKey(this.#config.resourcePrefix, key, false);
    } catch {
      return object;
    }
    const served = handOver ? servedJSONOf(object) : undefined;
    if (served === undefined) this.#recent.forget(prepared);
    else {
      const revision = this.#config.versioner.objectResourceVersion(object);
      this.#recent.put(prepared, { revision, bytes: served.length }, object);
    }
    return object;
  }

  delete(key: string, opts: DeleteOptions<T> = {}): Promise<T> {
    const { cachedExisting: _ignored, ...rest } = opts;
    const cached = this.#cached(key);
    return this.#config.storage.delete(
      key,
      cached === undefined ? rest : { ...rest, cachedExisting: cached },
    );
  }

  async guaranteedUpdate(key: string, opts: UpdateOptions<T>): Promise<T> {
    const { cachedExisting: _ignored, handOver, ...rest } = opts;
    const cached = this.#cached(key);
    const object = await this.#config.storage.guaranteedUpdate(
      key,
      cached === undefined ? rest : { ...rest, cachedExisting: cached },
    );
    return this.#written(key, object, handOver === true);
  }

  /** History is the log's, not the cache's: read from storage. */
  history(key: string): Promise<ObjectHistory<T>> {
    const { storage } = this.#config;
    if (storage.history === undefined) return Promise.reject(new Error('the storage keeps no history'));
    return storage.history(key);
  }

  count(key: string): Promise<number> {
    return this.#config.storage.count(key);
  }

  currentResourceVersion(): Promise<Revision> {
    return this.#config.storage.currentResourceVersion();
  }

  requestWatchProgress(): Promise<void> {
    return this.#config.storage.requestWatchProgress();
  }

  readinessCheck(): Promise<void> {
    if (this.#parts.ready.state !== 'ready') return Promise.reject(new Error(storageNotReadyMessage));
    return Promise.resolve();
  }

  #parseResourceVersion(rv: string): number {
    try {
      return this.#config.versioner.parseResourceVersion(rv);
    } catch (err) {
      throw invalidResourceVersion((err as Error).message);
    }
  }

  /**
   * The element a read takes at once, without a wait or a promise, when the cache is ready and has
   * what the read asks for: any version (`resourceVersion=0`, as informers and admission read), or
   * a current read of a local store that knows its revision without being asked. Undefined when the
   * read must go the long way.
   */
  #elementNow(key: string, opts: GetOptions): { el: StoreElement<T> | undefined } | undefined {
    if (this.#parts.ready.state !== 'ready') return undefined;
    const rv = opts.resourceVersion ?? '';
    if (rv !== '0' && (rv !== '' || !this.#caughtUp())) return undefined;
    return { el: this.#parts.cache.store.get(prepareKey(this.#config.resourcePrefix, key, false)) };
  }

  /**
   * The element a get reads from the cache, or null when storage must answer: before the cache is
   * ready, and for a read without a resourceVersion (which must be current) unless storage is local,
   * where the cache catches up with its current revision at once.
   */
  async #awaitElement(key: string, opts: GetOptions): Promise<{ el: StoreElement<T> | undefined } | null> {
    const { storage, resourcePrefix } = this.#config;
    const rv = opts.resourceVersion ?? '';
    if (rv === '' && storage.local !== true) return null;
    const prepared = prepareKey(resourcePrefix, key, false);
    if (this.#parts.ready.state !== 'ready') return null;
    const minimum = rv === '' ? await storage.currentResourceVersion() : this.#parseResourceVersion(rv);
    try {
      await this.#parts.waiters.wait(minimum, opts);
    } catch (err) {
      if (rv === '' && isTooLargeResourceVersion(err)) return null;
      throw err;
    }
    return { el: this.#parts.cache.store.get(prepared) };
  }

  /** KeyNotFound as the read's source would say it: storage (a current read) gives no revision. */
  #notFound(key: string, opts: GetOptions): never {
    const rv = (opts.resourceVersion ?? '') === '' ? 0 : this.#parts.cache.resourceVersion;
    throw keyNotFound(prepareKey(this.#config.resourcePrefix, key, false), rv);
  }

  async get(key: string, opts: GetOptions = {}): Promise<T | null> {
    const read = this.#elementNow(key, opts) ?? (await this.#awaitElement(key, opts));
    if (read === null) return this.#config.storage.get(key, opts);
    if (read.el !== undefined) return opts.readOnly === true ? sharedDecode(read.el) : decodeElement(read.el);
    if (opts.ignoreNotFound === true) return null;
    this.#notFound(key, opts);
  }

  getCachedNow(key: string): T | undefined {
    const el = this.#elementNow(key, anyVersion)?.el;
    return el === undefined ? undefined : sharedDecode(el);
  }

  async getEncoded(key: string, opts: GetOptions = {}): Promise<Buffer | null> {
    const read = this.#elementNow(key, opts) ?? (await this.#awaitElement(key, opts));
    if (read === null) return opts.cachedOnly === true ? null : encodedGet(this.#config.storage, key, opts);
    if (read.el !== undefined) return read.el.served.json;
    if (opts.ignoreNotFound === true) return null;
    this.#notFound(key, opts);
  }

  /** The cached list a getList answers with, or null when storage must answer it. */
  async #listElements(key: string, opts: ListOptions<T>): Promise<CachedList<T> | null> {
    const { storage, resourcePrefix } = this.#config;
    const recursive = opts.recursive === true;
    const prepared = prepareKey(resourcePrefix, key, recursive);
    const route = listRoute(opts);
    if (route === 'storage') return null;
    const minimum = this.#parseResourceVersion(opts.resourceVersion ?? '');
    const notReady = this.#parts.ready.check();
    if (notReady !== null) {
      if (listOnNotReadyCache(opts)) return null;
      throw notReady;
    }
    const scope = { key: prepared, recursive };
    if (route === 'cache') return this.#listAt(scope, opts, minimum);
    // A consistent read: from the cache once it has caught up with storage, else from storage. A
    // cache behind a store that cannot be asked for progress may wait for a periodic notification
    // (seconds): as kube without ConsistentListFromCache support, such reads go to storage.
    const current = await storage.currentResourceVersion();
    if (this.#parts.cache.resourceVersion < current && !(await (storage.supportsWatchProgress?.() ?? true)))
      return null;
    try {
      return await this.#listAt(scope, opts, current);
    } catch (err) {
      if (isTooLargeResourceVersion(err)) return null;
      throw err;
    }
  }

  async getList(key: string, opts: ListOptions<T> = {}): Promise<KubeList<T>> {
    const cached = await this.#listElements(key, opts);
    if (cached === null) return this.#config.storage.getList(key, opts);
    const list = this.#config.newListFunc?.() ?? { metadata: {}, items: [] };
    list.metadata = cached.metadata;
    const decode = opts.readOnly === true ? sharedDecode : decodeElement;
    list.items = cached.elements.map((el) => decode(el));
    return list;
  }

  async getListEncoded(key: string, opts: ListOptions<T> = {}): Promise<EncodedList> {
    const cached = await this.#listElements(key, opts);
    if (cached === null) return encodedList(this.#config.storage, key, opts);
    return { metadata: cached.metadata, items: cached.elements.map((el) => el.served.json) };
  }

  async #listAt(
    scope: { key: string; recursive: boolean },
    opts: ListOptions<T>,
    minimum: number,
  ): Promise<CachedList<T>> {
    const { cache, waiters } = this.#parts;
    await waiters.wait(minimum, opts);
    const ctx = {
      store: cache.store,
      resourceVersion: cache.resourceVersion,
      versioner: this.#config.versioner,
    };
    return listFromCache(ctx, scope, opts);
  }

  async watch(key: string, opts: ListOptions<T> = {}): Promise<Watch<T>> {
    const recursive = opts.recursive === true;
    const prepared = prepareKey(this.#config.resourcePrefix, key, recursive);
    const requested = this.#config.versioner.parseResourceVersion(opts.resourceVersion ?? '');
    const notReady = this.#parts.ready.check();
    if (notReady !== null) throw notReady;
    return startWatch(this.#config, this.#parts, { scope: { key: prepared, recursive }, requested, opts });
  }

  /** Stops the cacher: ends every watch and the reflector. The storage is the caller's to close. */
  stop(): Promise<void> {
    this.#stopping ??= this.#parts.stop();
    return this.#stopping;
  }

  close(): Promise<void> {
    return this.stop();
  }
}
