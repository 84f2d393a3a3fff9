// What a test snapshot keeps of a server's watch caches, and what a fork of it starts its caches
// from. Cache elements are never changed once made (a change makes a new element), so a snapshot can
// keep the very elements its caches held, with copies of their key order and indexes, and a fork's
// caches can start with them: no list from storage, no decode, no indexing. A seed is each cache's
// content at the revision it had reached; a fork's cache then watches storage from that revision,
// and so catches up with the snapshot's image through the ordinary watch events.
import { prefixEnd, type KeyValue } from '../kv/backend.js';
import type { KeyedStoreState } from './keyed-store.js';

/** One cache's objects at the resourceVersion it had reached. */
export interface CacheSeed {
  readonly resourceVersion: number;
  /** Where the cache's keys start in the backend (`/registry/configmaps/`). */
  readonly keyPrefix: string;
  readonly store: KeyedStoreState;
}

/** Seeds by cache name (see cacheName). */
export type CacheSeedMap = ReadonlyMap<string, CacheSeed>;

/** How one cache is told apart from the others of a server: its resource and its key prefix. */
export function cacheName(groupResource: string, resourcePrefix: string): string {
  return `${groupResource} ${resourcePrefix}`;
}

/** What a cache hands over when a snapshot is taken; undefined when it cannot serve (not ready). */
export type CaptureFunc = () => CacheSeed | undefined;

/**
 * One server's caches for snapshots: each cache attaches when it starts (and takes the seed its
 * server was given, if any) and detaches when it stops; capture() reads every attached cache at
 * once. Two caches under one name are not captured: which one a fork should start from is unclear.
 */
export class CacheSeeds {
  readonly #given: CacheSeedMap;
  readonly #attached = new Map<string, CaptureFunc[]>();

  constructor(given: CacheSeedMap = new Map()) {
    this.#given = given;
  }

  /** Registers a cache; returns the seed it may start from and the function that detaches it. */
  attach(name: string, capture: CaptureFunc): { seed: CacheSeed | undefined; detach: () => void } {
    let list = this.#attached.get(name);
    if (list === undefined) this.#attached.set(name, (list = []));
    list.push(capture);
    const detach = (): void => {
      const now = this.#attached.get(name);
      const i = now?.indexOf(capture) ?? -1;
      if (now === undefined || i < 0) return;
      now.splice(i, 1);
      if (now.length === 0) this.#attached.delete(name);
    };
    return { seed: this.#given.get(name), detach };
  }

  /** Every attached cache's content now, in one synchronous step. */
  capture(): Map<string, CacheSeed> {
    const out = new Map<string, CacheSeed>();
    for (const [name, captures] of this.#attached) {
      const [only, ...more] = captures;
      if (only === undefined || more.length > 0) continue;
      const seed = only();
      if (seed !== undefined) out.set(name, seed);
    }
    return out;
  }
}

/** The first index in sorted `keys` at or above `key`. */
function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Moves each seed up to `state.revision` when nothing under its prefix changed after the seed's own
 * revision: no key there was written later, and none was deleted (the keys there are as many as the
 * seed's elements). A cache that saw no change for a while lags behind the store (only progress
 * notifications move it), and a fork's cache would otherwise read the log from there to catch up.
 * `state` is the whole store at `revision`, sorted by key (a backend's list).
 */
export function advanceUnchanged(
  seeds: Map<string, CacheSeed>,
  state: { readonly kvs: readonly KeyValue[]; readonly revision: number },
): void {
  const keys = state.kvs.map((kv) => kv.key);
  for (let i = 1; i < keys.length; i++) if ((keys[i - 1] as string) >= (keys[i] as string)) return;
  for (const [name, seed] of seeds) {
    if (seed.resourceVersion >= state.revision) continue;
    const from = lowerBound(keys, seed.keyPrefix);
    const to = lowerBound(keys, prefixEnd(seed.keyPrefix));
    if (to - from !== seed.store.byKey.size) continue;
    let changed = false;
    for (let i = from; i < to && !changed; i++)
      changed = (state.kvs[i] as KeyValue).modRevision > seed.resourceVersion;
    if (!changed) seeds.set(name, { ...seed, resourceVersion: state.revision });
  }
}
