// kube's cache.LRUExpireCache as the authorization webhook uses it: a bounded map whose entries each
// carry their own expiry, the least recently used dropped first when full. Time comes from `now`.
export class DecisionCache<V> {
  readonly #max: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, { value: V; expires: number }>();

  constructor(opts: { max: number; now: () => number }) {
    this.#max = opts.max;
    this.#now = opts.now;
  }

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    if (entry.expires <= this.#now()) return undefined;
    // Re-inserted: the Map's order is the recency order.
    this.#entries.set(key, entry);
    return entry.value;
  }

  add(key: string, value: V, ttlMs: number): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, expires: this.#now() + ttlMs });
    if (this.#entries.size > this.#max) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}
