// The cache's current objects: a map by key, the keys kept sorted (lists come out in key order and
// pages start at a key), and indexes from a field value to the keys holding it (kube's
// cache.Indexer with the cacher's Indexers, and the namespace and name indexes).
import type { KubeObject } from '../../api/meta.js';
import { SortedKeys } from './sorted-keys.js';
import type { StoreElement } from './watch-cache-event.js';

/** Values of one index for an element; empty when the element is not in the index. */
export type IndexFunc<T extends KubeObject> = (el: StoreElement<T>) => readonly string[];

/** The smallest string above every string starting with `prefix`. */
function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

export class KeyedStore<T extends KubeObject> {
  readonly #byKey = new Map<string, StoreElement<T>>();
  readonly #sorted = new SortedKeys();
  readonly #indexFuncs: ReadonlyMap<string, IndexFunc<T>>;
  readonly #indexes = new Map<string, Map<string, Set<string>>>();

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

  /** Every element, in no particular order (a copy: the store may change after). */
  elements(): StoreElement<T>[] {
    return [...this.#byKey.values()];
  }

  /** Adds or replaces the element at its key; returns what was there. */
  put(el: StoreElement<T>): StoreElement<T> | undefined {
    const prev = this.#byKey.get(el.key);
    this.#byKey.set(el.key, el);
    if (prev === undefined) this.#sorted.insert(el.key);
    else this.#unindex(prev);
    this.#index(el);
    return prev;
  }

  delete(key: string): StoreElement<T> | undefined {
    const prev = this.#byKey.get(key);
    if (prev === undefined) return undefined;
    this.#byKey.delete(key);
    this.#sorted.delete(key);
    this.#unindex(prev);
    return prev;
  }

  /** Replaces everything (after a relist). */
  replace(elements: readonly StoreElement<T>[]): void {
    this.#byKey.clear();
    for (const index of this.#indexes.values()) index.clear();
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
    return this.#indexes.get(name)?.get(value)?.size ?? 0;
  }

  /** The elements holding `value` in index `name`, in key order. */
  byIndex(name: string, value: string): StoreElement<T>[] {
    const keys = [...(this.#indexes.get(name)?.get(value) ?? [])].sort((a, b) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return keys.map((k) => this.#byKey.get(k) as StoreElement<T>);
  }

  #index(el: StoreElement<T>): void {
    for (const [name, func] of this.#indexFuncs) {
      const index = this.#indexes.get(name) as Map<string, Set<string>>;
      for (const value of func(el)) {
        let keys = index.get(value);
        if (keys === undefined) index.set(value, (keys = new Set()));
        keys.add(el.key);
      }
    }
  }

  #unindex(el: StoreElement<T>): void {
    for (const [name, func] of this.#indexFuncs) {
      const index = this.#indexes.get(name) as Map<string, Set<string>>;
      for (const value of func(el)) {
        const keys = index.get(value);
        keys?.delete(el.key);
        if (keys?.size === 0) index.delete(value);
      }
    }
  }
}
