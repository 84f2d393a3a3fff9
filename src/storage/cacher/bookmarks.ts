// Periodic BOOKMARK events for watchers that allow them (kube's watcherBookmarkTimeBuckets and the
// bookmark timer in dispatchEvents): about every bookmarkFrequency per watcher, and once shortly
// before the watch's deadline so a client resuming after the timeout starts close to now. A bookmark
// carries only the resourceVersion the cache has reached; it never overtakes an undelivered event
// because it is only sent while the dispatcher is idle.
import type { KubeObject } from '../../api/meta.js';
import type { Versioner, WatchEvent } from '../interfaces.js';
import type { CacheWatcher } from './cache-watcher.js';
import { deepFreeze } from './freeze.js';
import { systemClock, type Clock, type ClockTimer } from '../../machinery/time/clock.js';

/** kube sends the deadline bookmark 2 s before the watch times out. */
const preTimeoutMs = 2000;

/** When a watcher's next bookmark is due; null when its deadline leaves no room for one. */
export function nextBookmarkTime(
  now: number,
  frequencyMs: number,
  deadline: number | undefined,
): number | null {
  let at = now + frequencyMs;
  if (deadline === undefined) return at;
  at = Math.min(at, deadline - preTimeoutMs);
  return at < now ? null : at;
}

export interface BookmarkSchedulerDeps {
  readonly frequencyMs: number;
  readonly tickMs: number;
  readonly newFunc: () => KubeObject;
  readonly versioner: Versioner;
  /** The resourceVersion the cache has reached (0 before the first list). */
  readonly resourceVersion: () => number;
  /** False while an event is being dispatched. */
  readonly idle: () => boolean;
  /** The server's clock: when bookmarks are due, and the timer that looks for them. */
  readonly clock?: Clock;
}

export class BookmarkScheduler<T extends KubeObject> {
  readonly #deps: BookmarkSchedulerDeps;
  readonly #watchers = new Set<CacheWatcher<T>>();
  readonly #clock: Clock;
  #timer: ClockTimer | null = null;
  #closed = false;

  constructor(deps: BookmarkSchedulerDeps) {
    this.#deps = deps;
    this.#clock = deps.clock ?? systemClock;
  }

  add(w: CacheWatcher<T>, now = this.#clock.now()): void {
    if (!w.allowBookmarks) return;
    w.nextBookmarkAt = nextBookmarkTime(now, this.#deps.frequencyMs, w.deadline);
    if (w.nextBookmarkAt === null) return;
    this.#watchers.add(w);
    this.#schedule();
  }

  remove(w: CacheWatcher<T>): void {
    this.#watchers.delete(w);
  }

  close(): void {
    this.#closed = true;
    this.#timer?.cancel();
    this.#timer = null;
    this.#watchers.clear();
  }

  /** Runs only while some watcher wants bookmarks (on the server's clock, so a virtual one drives it). */
  #schedule(): void {
    if (this.#timer !== null || this.#closed || this.#watchers.size === 0) return;
    // Jitter spreads the work of many cachers, as kube's wait.Jitter(time.Second, 0.25).
    const delay = this.#deps.tickMs * (1 + Math.random() * 0.25);
    this.#timer = this.#clock.setTimeout(
      () => {
        this.#timer = null;
        this.tick(this.#clock.now());
        this.#schedule();
        // Like an open watch socket, it keeps the process up while a watcher waits for bookmarks.
      },
      delay,
      { keepAlive: true },
    );
  }

  /** Sends the bookmarks that are due. */
  tick(now: number): void {
    const rv = this.#deps.resourceVersion();
    if (rv === 0 || !this.#deps.idle()) return;
    let event: WatchEvent<T> | null = null;
    for (const w of this.#watchers) {
      if (w.closed) {
        this.#watchers.delete(w);
        continue;
      }
      if (w.nextBookmarkAt === null || w.nextBookmarkAt > now) continue;
      event ??= this.#bookmark(rv);
      w.offerBookmark(event, rv);
      w.nextBookmarkAt = nextBookmarkTime(now, this.#deps.frequencyMs, w.deadline);
      if (w.nextBookmarkAt === null) this.#watchers.delete(w);
    }
  }

  #bookmark(rv: number): WatchEvent<T> {
    const object = this.#deps.newFunc();
    this.#deps.versioner.updateObject(object, rv);
    return Object.freeze({ type: 'BOOKMARK', object: deepFreeze(object) as T });
  }
}

/** The BOOKMARK that ends a watch's initial events (kube's k8s.io/initial-events-end annotation). */
export function initialEventsEndBookmark<T extends KubeObject>(
  deps: Pick<BookmarkSchedulerDeps, 'newFunc' | 'versioner'>,
  rv: number,
): WatchEvent<T> {
  const object = deps.newFunc();
  deps.versioner.updateObject(object, rv);
  object.metadata = { ...object.metadata, annotations: { 'k8s.io/initial-events-end': 'true' } };
  return Object.freeze({ type: 'BOOKMARK', object: deepFreeze(object) as T });
}
