// The cache's current objects: a map by key, the keys kept sorted (lists come out in key order and
// pages start at a key), and indexes from a field value to the keys holding it (kube's
// cache.Indexer with the cacher's Indexers, and the namespace and name indexes).
import type { KubeObject } from '../../api/meta.js';
import type { ObjectAttrs } from '../interfaces.js';
import { SortedKeys } from './sorted-keys.js';
import type { StoreElement } from './watch-cache-event.js';

/** The same label and field sets: an update that changed neither shares them (elements.ts). */
const sameAttrs = (a: ObjectAttrs, b: ObjectAttrs): boolean => a.labels === b.labels && a.fields === b.fields;

/**
 * Values of one index for an element; empty when the element is not in the index. It reads only
 * the element's attrs and indexValues: an element that shares both with the one it replaces keeps
 * its place in every index.
 */
export type IndexFunc<T extends KubeObject> = (el: StoreElement<T>) => readonly string[];

/**
 * The keys holding one index value: the key itself while it is the only one (every value of the
 * name index, as a rule), a set from the second key on. A set per object cost ~230 bytes of heap.
 */
type IndexEntry = string | Set<string>;
type Index = Map<string, IndexEntry>;

/** The smallest string above every string starting with `prefix`. */
function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/**
 * A store's content at one moment (elements are shared, they never change): what a test snapshot
 * keeps of a watch cache, and what a fork's cache starts from rather than index every element anew.
 * It shares the store's maps: each store copies them before its first change after (copy on write).
 */
export interface KeyedStoreState<T extends KubeObject = KubeObject> {
  readonly byKey: ReadonlyMap<string, StoreElement<T>>;
  readonly sorted: readonly (readonly string[])[];
  readonly indexes: ReadonlyMap<string, ReadonlyMap<string, string | ReadonlySet<string>>>;
}

export class KeyedStore<T extends KubeObject> {
  #byKey = new Map<string, StoreElement<T>>();
  readonly #sorted = new SortedKeys();
  readonly #indexFuncs: ReadonlyMap<string, IndexFunc<T>>;
  readonly #indexes = new Map<string, Index>();
  /** Whether the key map, the index maps and the sorted keys are also a state's: copy before a change. */
  #shared = false;
  /**
   * The index sets this store may change in place; the others are shared with a state (as the maps
   * are), and a change copies the one set it touches.
   */
  #owned = new WeakSet<Set<string>>();

  constructor(indexFuncs: ReadonlyMap<string, IndexFunc<T>>) {
    this.#indexFuncs = indexFuncs;
    for (const name of indexFuncs.keys()) this.#indexes.set(name, new Map());
  }

  get size(): number {
    return this.#byKey.size;
  }

  get(key: string): StoreElement<T> | undefined {
    return this.#byKey.get(key);
  }

  /** The content now, which later changes to this store do not touch. */
  state(): KeyedStoreState<T> {
    this.#shared = true;
    this.#owned = new WeakSet();
    return { byKey: this.#byKey, sorted: this.#sorted.chunks(), indexes: new Map(this.#indexes) };
  }

  /**
   * Replaces everything with `state` (another store's, with the same index functions: the index
   * values are taken, not computed again). A state with other indexes is indexed here.
   */
  copyFrom(state: KeyedStoreState<T>): void {
    const sameIndexes =
      state.indexes.size === this.#indexes.size &&
      [...this.#indexes.keys()].every((n) => state.indexes.has(n));
    if (!sameIndexes) {
      this.replace([...state.byKey.values()]);
      return;
    }
    // Shared until the first change; the state's types are read-only, this store's own copies are not.
    this.#byKey = state.byKey as Map<string, StoreElement<T>>;
    for (const [name, index] of state.indexes) this.#indexes.set(name, index as Index);
    this.#sorted.share(state.sorted);
    this.#shared = true;
    this.#owned = new WeakSet();
  }

  /** Makes the maps and sorted keys this store's own before it changes them. */
  #own(): void {
    if (!this.#shared) return;
    this.#byKey = new Map(this.#byKey);
    for (const [name, index] of this.#indexes) this.#indexes.set(name, new Map(index));
    this.#sorted.share(this.#sorted.chunks().map((c) => c.slice()));
    this.#shared = false;
  }

  /** Adds or replaces the element at its key; returns what was there. */
  put(el: StoreElement<T>): StoreElement<T> | undefined {
    this.#own();
    const prev = this.#byKey.get(el.key);
    this.#byKey.set(el.key, el);
    if (prev === undefined) this.#sorted.insert(el.key);
    else if (sameAttrs(prev.attrs, el.attrs) && prev.indexValues === el.indexValues) return prev;
    else this.#unindex(prev);
    this.#index(el);
    return prev;
  }

  delete(key: string): StoreElement<T> | undefined {
    const prev = this.#byKey.get(key);
    if (prev === undefined) return undefined;
    this.#own();
    this.#byKey.delete(key);
    this.#sorted.delete(key);
    this.#unindex(prev);
    return prev;
  }

  /** Replaces everything (after a relist). */
  replace(elements: readonly StoreElement<T>[]): void {
    this.#byKey = new Map();
    for (const name of this.#indexes.keys()) this.#indexes.set(name, new Map());
    this.#shared = false;
    for (const el of elements) {
      this.#byKey.set(el.key, el);
      this.#index(el);
    }
    this.#sorted.reset([...this.#byKey.keys()]);
  }

  /** Elements whose key starts with `prefix`, from `from` on (inclusive), in key order. */
  *range(prefix: string, from = ''): Generator<StoreElement<T>> {
    for (const key of this.#sorted.range(from > prefix ? from : prefix, prefixEnd(prefix)))
      yield this.#byKey.get(key) as StoreElement<T>;
  }

  /** How many keys start with `prefix`. */
  count(prefix: string): number {
    return this.#sorted.rank(prefixEnd(prefix)) - this.#sorted.rank(prefix);
  }

  hasIndex(name: string): boolean {
    return this.#indexes.has(name);
  }

  /** How many elements one index value holds (to pick the narrowest index). */
  indexSize(name: string, value: string): number {
    const entry = this.#indexes.get(name)?.get(value);
    return entry === undefined ? 0 : typeof entry === 'string' ? 1 : entry.size;
  }

  /** The elements holding `value` in index `name`, in key order. */
  byIndex(name: string, value: string): StoreElement<T>[] {
    const entry = this.#indexes.get(name)?.get(value);
    if (entry === undefined) return [];
    if (typeof entry === 'string') return [this.#byKey.get(entry) as StoreElement<T>];
    const keys = [...entry].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return keys.map((k) => this.#byKey.get(k) as StoreElement<T>);
  }

  #index(el: StoreElement<T>): void {
    for (const [name, func] of this.#indexFuncs) {
      const index = this.#indexes.get(name) as Index;
      for (const value of func(el)) {
        const entry = index.get(value);
        if (entry === undefined) index.set(value, el.key);
        else if (typeof entry !== 'string') this.#ownSet(index, value, entry).add(el.key);
        else if (entry !== el.key) {
          const both = new Set([entry, el.key]);
          this.#owned.add(both);
          index.set(value, both);
        }
      }
    }
  }

  /** The set of `value` in `index`, copied first unless this store may change it. */
  #ownSet(index: Index, value: string, keys: Set<string>): Set<string> {
    if (this.#owned.has(keys)) return keys;
    const own = new Set(keys);
    this.#owned.add(own);
    index.set(value, own);
    return own;
  }

  #unindex(el: StoreElement<T>): void {
    for (const [name, func] of this.#indexFuncs) {
      const index = this.#indexes.get(name) as Index;
      for (const value of func(el)) {
        const entry = index.get(value);
        if (entry === undefined) continue;
        if (typeof entry === 'string') {
          if (entry === el.key) index.delete(value);
          continue;
        }
        if (!entry.has(el.key)) continue;
        if (entry.size > 2) {
          this.#ownSet(index, value, entry).delete(el.key);
          continue;
        }
        // One key stays: held as itself again.
        let other: string | undefined;
        for (const k of entry) if (k !== el.key) other = k;
        if (other === undefined) index.delete(value);
        else index.set(value, other);
      }
    }
  }
}
