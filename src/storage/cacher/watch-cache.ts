// The watch cache (kube's watch_cache.go): the current objects, the window of recent events and the
// resourceVersion the cache has reached, fed by the reflector one change at a time.
import type { KubeObject } from '../../api/meta.js';
import { newResourceExpired } from '../../machinery/errors/index.js';
import {
  deletedElementOf,
  elementKeyOf,
  elementOf,
  elementOfServed,
  type Arrival,
  type ElementRules,
} from './elements.js';
import { EventWindow } from './event-window.js';
import { KeyedStore, type IndexFunc, type KeyedStoreState } from './keyed-store.js';
import { normalizeObjectKey } from './keys.js';
import { WatchCacheEvent, type CacheEventType } from './watch-cache-event.js';

export interface WatchCacheOptions<T extends KubeObject> {
  readonly rules: ElementRules<T>;
  readonly indexFuncs: ReadonlyMap<string, IndexFunc<T>>;
  readonly window: {
    readonly lowerBound: number;
    readonly upperBound: number;
    readonly freshDurationMs: number;
  };
  /** Called whenever the resourceVersion moves forward. */
  readonly onAdvance: (rv: number) => void;
  readonly now?: () => number;
}

export class WatchCache<T extends KubeObject> {
  readonly #opts: WatchCacheOptions<T>;
  readonly store: KeyedStore<T>;
  readonly window: EventWindow<T>;
  // Events record their time in ms since the cache began: a wall-clock ms is past the small
  // integers V8 holds unboxed, and every event in the window would hold a boxed number more.
  readonly #epoch: number;
  #resourceVersion = 0;
  #listResourceVersion = 0;

  constructor(opts: WatchCacheOptions<T>) {
    this.#opts = opts;
    this.#epoch = this.#wallClock();
    this.store = new KeyedStore(opts.indexFuncs);
    this.window = new EventWindow(opts.window);
  }

  /** The resourceVersion up to which the cache has seen every change. */
  get resourceVersion(): number {
    return this.#resourceVersion;
  }

  /** Applies one change from storage; returns the event to dispatch. */
  apply(type: CacheEventType, arrival: Arrival<T>): WatchCacheEvent<T> {
    const rules = this.#opts.rules;
    let element;
    let prev;
    if (type === 'DELETED') {
      const key = arrival.stored === undefined ? undefined : normalizeObjectKey(arrival.stored.key);
      element = deletedElementOf(rules, arrival, key === undefined ? undefined : this.store.get(key));
      prev = this.store.delete(element.key);
    } else {
      const key = elementKeyOf(rules, arrival.object);
      element = elementOf(rules, arrival, { key, known: this.store.get(key) });
      prev = this.store.put(element);
    }
    const recordTime = this.#wallClock() - this.#epoch;
    const event = new WatchCacheEvent({ type, element, prev: prev ?? null, recordTime });
    this.window.push(event);
    this.#advance(element.resourceVersion);
    return event;
  }

  /** Storage says nothing changed up to `rv` (a progress notification). */
  bookmark(rv: number): void {
    this.#advance(rv);
  }

  /** Replaces everything with a fresh list at `rv` (kube's Replace): items as reads serve them. */
  replace(items: readonly Buffer[], rv: number): void {
    this.store.replace(items.map((json) => elementOfServed(this.#opts.rules, json)));
    this.#reset(rv);
  }

  /** Replaces everything with a copy of another cache's content at `rv` (a seed). */
  seed(state: KeyedStoreState<T>, rv: number): void {
    this.store.copyFrom(state);
    this.#reset(rv);
  }

  #reset(rv: number): void {
    this.window.reset();
    this.#listResourceVersion = rv;
    this.#resourceVersion = rv;
    this.#opts.onAdvance(rv);
  }

  #wallClock(): number {
    return this.#opts.now?.() ?? Date.now();
  }

  #advance(rv: number): void {
    if (rv <= this.#resourceVersion) return;
    this.#resourceVersion = rv;
    this.#opts.onAdvance(rv);
  }

  /**
   * The buffered events after `rv` (kube's getAllEventsSinceLocked). A watch from before the oldest
   * event the window can still replay fails with 410 "too old resource version: N (M)".
   */
  eventsSince(rv: number): WatchCacheEvent<T>[] {
    const oldest = this.#oldestDeliverable();
    if (rv < oldest - 1) {
      throw newResourceExpired(`too old resource version: ${rv} (${oldest - 1})`);
    }
    return this.window.since(rv);
  }

  #oldestDeliverable(): number {
    // With nothing evicted since the relist, everything after the list is still here.
    if (!this.window.evictedSinceReset) return this.#listResourceVersion + 1;
    return this.window.oldest()?.resourceVersion ?? this.#resourceVersion + 1;
  }
}
