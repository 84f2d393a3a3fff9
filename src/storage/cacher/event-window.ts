// The cyclic window of recent events (the buffer in kube's watch_cache.go). Its capacity starts at
// the configured size and follows kube's rules: when full and the oldest event is younger than the
// fresh duration it doubles (up to the upper bound); when full and the newest quarter reaches back past
// the fresh duration it halves (down to the lower bound).
import type { KubeObject } from '../../api/meta.js';
import type { WatchCacheEvent } from './watch-cache-event.js';

export interface EventWindowOptions {
  readonly lowerBound: number;
  readonly upperBound: number;
  readonly freshDurationMs: number;
}

export class EventWindow<T extends KubeObject> {
  readonly #opts: EventWindowOptions;
  #buf: (WatchCacheEvent<T> | undefined)[];
  #capacity: number;
  /** Absolute indexes: the window holds [start, end). */
  #start = 0;
  #end = 0;
  #evictedSinceReset = false;

  constructor(opts: EventWindowOptions) {
    this.#opts = opts;
    this.#capacity = opts.lowerBound;
    this.#buf = new Array<WatchCacheEvent<T> | undefined>(opts.lowerBound);
  }

  get capacity(): number {
    return this.#capacity;
  }

  get size(): number {
    return this.#end - this.#start;
  }

  /** Whether an event was dropped from the window since the last reset (relist). */
  get evictedSinceReset(): boolean {
    return this.#evictedSinceReset;
  }

  #at(i: number): WatchCacheEvent<T> {
    return this.#buf[i % this.#capacity] as WatchCacheEvent<T>;
  }

  oldest(): WatchCacheEvent<T> | undefined {
    return this.size > 0 ? this.#at(this.#start) : undefined;
  }

  push(event: WatchCacheEvent<T>): void {
    this.#resize(event.recordTime);
    if (this.#full()) {
      this.#buf[this.#start % this.#capacity] = undefined;
      this.#start++;
      this.#evictedSinceReset = true;
    }
    this.#buf[this.#end % this.#capacity] = event;
    this.#end++;
  }

  /** Empties the window after a relist. */
  reset(): void {
    this.#buf = new Array<WatchCacheEvent<T> | undefined>(this.#capacity);
    this.#start = this.#end;
    this.#evictedSinceReset = false;
  }

  /** The events with a resourceVersion above `rv`, oldest first. */
  since(rv: number): WatchCacheEvent<T>[] {
    let lo = this.#start;
    let hi = this.#end;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (this.#at(mid).resourceVersion > rv) hi = mid;
      else lo = mid + 1;
    }
    const out: WatchCacheEvent<T>[] = [];
    for (let i = lo; i < this.#end; i++) out.push(this.#at(i));
    return out;
  }

  #full(): boolean {
    return this.#end - this.#start === this.#capacity;
  }

  #resize(now: number): void {
    if (!this.#full()) return;
    const { lowerBound, upperBound, freshDurationMs } = this.#opts;
    if (now - this.#at(this.#start).recordTime < freshDurationMs) {
      const grown = Math.min(this.#capacity * 2, upperBound);
      if (grown > this.#capacity) this.#resizeTo(grown);
      return;
    }
    const quarterBack = this.#at(this.#end - Math.floor(this.#capacity / 4)).recordTime;
    if (now - quarterBack > freshDurationMs) {
      const shrunk = Math.max(Math.floor(this.#capacity / 2), lowerBound);
      if (shrunk < this.#capacity) this.#resizeTo(shrunk);
    }
  }

  #resizeTo(capacity: number): void {
    const next = new Array<WatchCacheEvent<T> | undefined>(capacity);
    if (capacity < this.#end - this.#start) {
      // Shrinking drops the oldest events; watches from before them must now get 410.
      this.#start = this.#end - capacity;
      this.#evictedSinceReset = true;
    }
    for (let i = this.#start; i < this.#end; i++) next[i % capacity] = this.#at(i);
    this.#buf = next;
    this.#capacity = capacity;
  }
}
