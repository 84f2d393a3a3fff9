// The cache's current objects: a map by key, the keys kept sorted (lists come out in key order and
// pages start at a key), and indexes from a field value to the keys holding it (kube's
// cache.Indexer with the cacher's Indexers, and the namespace and name indexes).
import type { KubeObject } from '../../api/meta.js';
import type { StoreElement } from './watch-cache-event.js';

/** Values of one index for an element; empty when the element is not in the index. */
export type IndexFunc<T extends KubeObject> = (el: StoreElement<T>) => readonly string[];

/** First position in a sorted array whose key is not below `key`. */
function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The smallest string above every string starting with `prefix`. */
function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

export class KeyedStore<T extends KubeObject> {
  readonly #byKey = new Map<string, StoreElement<T>>();
  #sorted: string[] = [];
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

  /** Adds or replaces the element at its key; returns what was there. */
  put(el: StoreElement<T>): StoreElement<T> | undefined {
    const prev = this.#byKey.get(el.key);
    this.#byKey.set(el.key, el);
    if (prev === undefined) this.#sorted.splice(lowerBound(this.#sorted, el.key), 0, el.key);
    else this.#unindex(prev);
    this.#index(el);
    return prev;
  }

  delete(key: string): StoreElement<T> | undefined {
    const prev = this.#byKey.get(key);
    if (prev === undefined) return undefined;
    this.#byKey.delete(key);
    this.#sorted.splice(lowerBound(this.#sorted, key), 1);
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
    this.#sorted = [...this.#byKey.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** Elements whose key starts with `prefix`, from `from` on (inclusive), in key order. */
  *range(prefix: string, from = ''): Generator<StoreElement<T>> {
    const sorted = this.#sorted;
    const end = prefixEnd(prefix);
    for (let i = lowerBound(sorted, from > prefix ? from : prefix); i < sorted.length; i++) {
      const key = sorted[i] as string;
      if (key >= end) return;
      yield this.#byKey.get(key) as StoreElement<T>;
    }
  }

  /** How many keys start with `prefix`. */
  count(prefix: string): number {
    return lowerBound(this.#sorted, prefixEnd(prefix)) - lowerBound(this.#sorted, prefix);
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
