// Cacher: storage.Interface served from a watch cache (kube's cacher.go with delegator.go). Writes go
// to storage with the cache's copy as a hint; reads the cache can answer (see delegator.ts) wait for
// it to be fresh enough; watches are served from it and fanned out by the dispatcher.
import type { KubeList, KubeObject } from '../../api/meta.js';
import { StatusError } from '../../machinery/errors/index.js';
import { invalidResourceVersion } from '../api-errors.js';
import { keyNotFound } from '../errors.js';
import type {
  CreateOptions,
  DeleteOptions,
  GetOptions,
  Interface,
  ListOptions,
  Revision,
  UpdateOptions,
  Versioner,
  Watch,
} from '../interfaces.js';
import { cacherParts, type CacherParts } from './cacher-parts.js';
import { listOnNotReadyCache, listRoute } from './delegator.js';
import { prepareKey } from './keys.js';
import { listFromCache } from './list-from-cache.js';
import { completeCacherConfig, type CacherConfig, type CompletedCacherConfig } from './options.js';
import { startWatch } from './start-watch.js';

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
  #stopping: Promise<void> | null = null;

  constructor(config: CacherConfig<T>) {
    this.#config = completeCacherConfig(config);
    this.#parts = cacherParts(this.#config);
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

  /** The cache's copy of the object at `key`, to spare storage a read (kube ignores the caller's). */
  #cached(key: string): T | undefined {
    try {
      return this.#parts.cache.store.get(prepareKey(this.#config.resourcePrefix, key, false))?.object;
    } catch {
      return undefined;
    }
  }

  delete(key: string, opts: DeleteOptions<T> = {}): Promise<T> {
    const { cachedExisting: _ignored, ...rest } = opts;
    const cached = this.#cached(key);
    return this.#config.storage.delete(
      key,
      cached === undefined ? rest : { ...rest, cachedExisting: cached },
    );
  }

  guaranteedUpdate(key: string, opts: UpdateOptions<T>): Promise<T> {
    const { cachedExisting: _ignored, ...rest } = opts;
    const cached = this.#cached(key);
    return this.#config.storage.guaranteedUpdate(
      key,
      cached === undefined ? rest : { ...rest, cachedExisting: cached },
    );
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

  async get(key: string, opts: GetOptions = {}): Promise<T | null> {
    const { storage, resourcePrefix } = this.#config;
    const rv = opts.resourceVersion ?? '';
    // A read without a resourceVersion must be current: storage answers it (kube, for compatibility).
    if (rv === '') return storage.get(key, opts);
    const prepared = prepareKey(resourcePrefix, key, false);
    if (this.#parts.ready.state !== 'ready') return storage.get(key, opts);
    const minimum = this.#parseResourceVersion(rv);
    await this.#parts.waiters.wait(minimum, opts.signal);
    const el = this.#parts.cache.store.get(prepared);
    if (el !== undefined) return el.object;
    if (opts.ignoreNotFound === true) return null;
    throw keyNotFound(prepared, this.#parts.cache.resourceVersion);
  }

  async getList(key: string, opts: ListOptions<T> = {}): Promise<KubeList<T>> {
    const { storage, resourcePrefix } = this.#config;
    const recursive = opts.recursive === true;
    const prepared = prepareKey(resourcePrefix, key, recursive);
    const route = listRoute(opts);
    if (route === 'storage') return storage.getList(key, opts);
    const minimum = this.#parseResourceVersion(opts.resourceVersion ?? '');
    const notReady = this.#parts.ready.check();
    if (notReady !== null) {
      if (listOnNotReadyCache(opts)) return storage.getList(key, opts);
      throw notReady;
    }
    const scope = { key: prepared, recursive };
    if (route === 'cache') return this.#listAt(scope, opts, minimum);
    // A consistent read: from the cache once it has caught up with storage, else from storage.
    const current = await storage.currentResourceVersion();
    try {
      return await this.#listAt(scope, opts, current);
    } catch (err) {
      if (isTooLargeResourceVersion(err)) return storage.getList(key, opts);
      throw err;
    }
  }

  async #listAt(
    scope: { key: string; recursive: boolean },
    opts: ListOptions<T>,
    minimum: number,
  ): Promise<KubeList<T>> {
    const { cache, waiters } = this.#parts;
    await waiters.wait(minimum, opts.signal);
    const ctx = {
      store: cache.store,
      resourceVersion: cache.resourceVersion,
      versioner: this.#config.versioner,
      newListFunc: this.#config.newListFunc,
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
