// One watch served from the cache (kube's cache_watcher.go): first the initial events it was started
// with (a replay from the window, or the current objects as ADDED), then live events offered by the
// dispatcher into a bounded WatchChan. A watcher whose queue stays full is terminated, not buffered.
import type { KubeObject } from '../../api/meta.js';
import type { SelectionPredicate, Watch, WatchEvent } from '../interfaces.js';
import { WatchChan } from '../watch-chan.js';
import { keyMatches } from './keys.js';
import { matchesElement } from './elements.js';
import type { CacheEventType, StoreElement, WatchCacheEvent } from './watch-cache-event.js';

export interface CacheWatcherInit<T extends KubeObject> {
  /** The prepared key: a prefix ending in '/' when recursive, else one exact key. */
  readonly scope: string;
  readonly recursive: boolean;
  /** Undefined selects everything. */
  readonly predicate: SelectionPredicate<T> | undefined;
  /** Live events the consumer may lag behind by before the watcher is ended. */
  readonly capacity: number;
  readonly allowBookmarks: boolean;
  /** Epoch ms at which the caller will end the watch; a bookmark goes out shortly before. */
  readonly deadline: number | undefined;
  /** Live events at or below this resourceVersion were covered by the initial events. */
  readonly minResourceVersion: number;
  /** Called once when the watcher ends, however it ends. */
  readonly forget: () => void;
}

/** The change a watcher sees: ADDED when the object enters its selection, DELETED when it leaves. */
export function kindFor<T extends KubeObject>(
  event: WatchCacheEvent<T>,
  matches: (el: StoreElement<T>) => boolean,
): CacheEventType | null {
  const prev = event.type === 'DELETED' ? (event.prev ?? event.element) : event.prev;
  const cur = event.type !== 'DELETED' && matches(event.element);
  const old = prev !== null && matches(prev);
  if (cur) return old ? 'MODIFIED' : 'ADDED';
  return old ? 'DELETED' : null;
}

export class CacheWatcher<T extends KubeObject> implements Watch<T> {
  readonly #init: CacheWatcherInit<T>;
  readonly #chan: WatchChan<T>;
  #initial: Iterator<WatchEvent<T>> | null = null;
  #writable: (() => void)[] = [];
  #forgotten = false;
  /** When the next periodic bookmark is due (epoch ms); null: none. */
  nextBookmarkAt: number | null = null;

  constructor(init: CacheWatcherInit<T>) {
    this.#init = init;
    this.#chan = new WatchChan<T>({
      capacity: init.capacity,
      onStop: () => {
        this.#forget();
        this.#wakeWritable();
      },
      onTake: () => {
        this.#wakeWritable();
      },
    });
  }

  get done(): Promise<void> {
    return this.#chan.done;
  }

  get closed(): boolean {
    return this.#chan.closed;
  }

  get allowBookmarks(): boolean {
    return this.#init.allowBookmarks;
  }

  get deadline(): number | undefined {
    return this.#init.deadline;
  }

  /** The events sent before any live one; set once, before the watcher is registered. */
  setInitial(events: Iterable<WatchEvent<T>>): void {
    this.#initial = events[Symbol.iterator]();
  }

  readonly matches = (el: StoreElement<T>): boolean =>
    keyMatches(el.key, this.#init.scope, this.#init.recursive) && matchesElement(this.#init.predicate, el);

  /**
   * Offers a live event. Returns null when it was queued or is not for this watcher, or the watch
   * event that did not fit: the dispatcher may retry it for a short while, then ends the watcher.
   */
  offer(event: WatchCacheEvent<T>): WatchEvent<T> | null {
    if (this.#chan.closed || event.resourceVersion <= this.#init.minResourceVersion) return null;
    const kind = kindFor(event, this.matches);
    if (kind === null) return null;
    const out = event.watchEvent(kind, { shared: true });
    return this.#chan.push(out) ? null : out;
  }

  /** Queues an event that did not fit before; false while the queue is still full. */
  retry(event: WatchEvent<T>): boolean {
    return this.#chan.closed || this.#chan.push(event);
  }

  /** Queues a progress BOOKMARK unless it would say nothing new or the queue is full. */
  offerBookmark(event: WatchEvent<T>, resourceVersion: number): void {
    if (!this.#init.allowBookmarks || resourceVersion <= this.#init.minResourceVersion) return;
    this.#chan.push(event);
  }

  /** Resolves when the consumer has taken an event (there is room again) or the watch ended. */
  whenWritable(): Promise<void> {
    if (this.#chan.closed) return Promise.resolve();
    return new Promise((resolve) => this.#writable.push(resolve));
  }

  /** Ends the watch from the producer side: queued events are still delivered, nothing after them. */
  terminate(): void {
    this.#initial = null;
    this.#chan.close();
    this.#wakeWritable();
    this.#forget();
  }

  stop(): void {
    this.#initial = null;
    this.#chan.stop();
    this.#wakeWritable();
  }

  #forget(): void {
    if (this.#forgotten) return;
    this.#forgotten = true;
    this.#init.forget();
  }

  #wakeWritable(): void {
    if (this.#writable.length === 0) return;
    const waiting = this.#writable;
    this.#writable = [];
    for (const resolve of waiting) resolve();
  }

  /** The initial events, then the live ones (a plain iterator: see WatchChan's). */
  [Symbol.asyncIterator](): AsyncIterator<WatchEvent<T>> {
    const live = this.#chan[Symbol.asyncIterator]();
    return {
      next: () => {
        const initial = this.#initial?.next();
        if (initial !== undefined && initial.done !== true)
          return Promise.resolve({ value: initial.value, done: false });
        this.#initial = null;
        return live.next();
      },
      return: () => {
        this.stop();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
