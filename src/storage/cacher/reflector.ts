// Keeps the watch cache in step with storage (client-go's Reflector as the cacher runs it): list
// everything under the resource prefix in pages, replace the cache, then watch from the list's
// revision with progress notifications. Any watch error (410 after a compaction included) or end
// fails the cycle: the handler is told, and after a growing backoff the reflector lists again.
import type { KubeObject } from '../../api/meta.js';
import { StatusError } from '../../machinery/errors/index.js';
import type { EncodedList, Interface, ListOptions, Versioner, Watch } from '../interfaces.js';
import { encodedList } from '../encoded-reads.js';
import type { Arrival } from './elements.js';
import type { CacheSeed } from './cache-seeds.js';
import type { KeyedStoreState } from './keyed-store.js';
import { stopReason } from '../../machinery/errors/stop-reason.js';

/** kube's storageWatchListPageSize. */
const pageSize = 10_000;

export interface ReflectorHandler<T extends KubeObject> {
  /** The full state at `rv`, each item as reads serve it. */
  replace(items: Buffer[], rv: number): Promise<void> | undefined;
  /** The full state at `rv` as another cache held it (a seed). */
  seed(state: KeyedStoreState<T>, rv: number): Promise<void> | undefined;
  change(type: 'ADDED' | 'MODIFIED' | 'DELETED', arrival: Arrival<T>): Promise<void> | undefined;
  progress(rv: number): Promise<void> | undefined;
  /** The cycle failed; the cache must stop serving until the next replace. */
  failed(err: unknown): void;
}

export interface ReflectorOptions<T extends KubeObject> {
  readonly storage: Interface<T>;
  readonly versioner: Versioner;
  readonly resourcePrefix: string;
  readonly handler: ReflectorHandler<T>;
  readonly backoffMs: number;
  readonly backoffMaxMs: number;
  /** The first cycle's state instead of a list (a fork's cache); watched from its resourceVersion. */
  readonly seed?: CacheSeed;
}

export class Reflector<T extends KubeObject> {
  readonly #opts: ReflectorOptions<T>;
  readonly #abort = new AbortController();
  #watch: Watch<T> | null = null;
  #running: Promise<void> | null = null;
  #seed: CacheSeed | undefined;
  /** Completed list-and-watch cycles that ended in failure; for tests. */
  failures = 0;

  constructor(opts: ReflectorOptions<T>) {
    this.#opts = opts;
    this.#seed = opts.seed;
  }

  #stopped(): boolean {
    return this.#abort.signal.aborted;
  }

  start(): void {
    this.#running ??= this.#run();
  }

  async close(): Promise<void> {
    this.#abort.abort(stopReason);
    this.#watch?.stop();
    await this.#running;
  }

  async #run(): Promise<void> {
    let backoff = this.#opts.backoffMs;
    while (!this.#stopped()) {
      const started = Date.now();
      try {
        await this.#listAndWatch();
      } catch (err) {
        if (this.#stopped()) return;
        this.failures++;
        this.#opts.handler.failed(err);
      }
      // close() ends the watch, and the cycle returns: no backoff after a stop.
      if (this.#stopped()) return;
      // A cycle that ran for a while resets the backoff (client-go resets after 2 quiet minutes).
      if (Date.now() - started > 2 * 60_000) backoff = this.#opts.backoffMs;
      await this.#sleep(backoff * (1 + Math.random()));
      backoff = Math.min(backoff * 2, this.#opts.backoffMaxMs);
    }
  }

  #sleep(ms: number): Promise<void> {
    const signal = this.#abort.signal;
    return new Promise((resolve) => {
      if (signal.aborted) {
        resolve();
        return;
      }
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done, { once: true });
    });
  }

  #listPage(opts: ListOptions<T>): Promise<EncodedList> {
    return encodedList(this.#opts.storage, this.#opts.resourcePrefix, opts);
  }

  async #list(): Promise<{ items: Buffer[]; rv: number }> {
    const { versioner } = this.#opts;
    const signal = this.#abort.signal;
    const items: Buffer[] = [];
    let list = await this.#listPage({ recursive: true, limit: pageSize, signal });
    const rv = versioner.parseResourceVersion(list.metadata.resourceVersion ?? '');
    items.push(...list.items);
    while ((list.metadata.continue ?? '') !== '') {
      list = await this.#listPage({
        recursive: true,
        limit: pageSize,
        continue: list.metadata.continue ?? '',
        signal,
      });
      items.push(...list.items);
    }
    return { items, rv };
  }

  async #listAndWatch(): Promise<void> {
    const { storage, resourcePrefix, versioner, handler } = this.#opts;
    // A seed serves the first cycle only: a later one (after a failure) lists as usual.
    const seed = this.#seed;
    this.#seed = undefined;
    const listed = seed === undefined ? await this.#list() : undefined;
    const rv = seed?.resourceVersion ?? listed?.rv ?? 0;
    if (this.#stopped()) return;
    // The watch is open before the cache says it is ready: a compaction right after the list fails
    // this cycle here, not watches that clients already started on a cache that looked ready.
    const watch = await storage.watch(resourcePrefix, {
      recursive: true,
      resourceVersion: String(rv),
      progressNotify: true,
      sendInitialEvents: false,
      shareObjects: true,
      signal: this.#abort.signal,
    });
    this.#watch = watch;
    if (seed !== undefined) await handler.seed(seed.store as KeyedStoreState<T>, rv);
    else await handler.replace(listed?.items ?? [], rv);
    for await (const event of watch) {
      switch (event.type) {
        case 'ERROR':
          throw new StatusError(event.object);
        case 'BOOKMARK':
          await handler.progress(versioner.objectResourceVersion(event.object));
          break;
        case 'ADDED':
        case 'MODIFIED':
        case 'DELETED':
          await handler.change(event.type, event);
          break;
      }
    }
    if (!this.#stopped()) throw new Error('the storage watch ended');
  }
}
