// The cache's keys in order, as a list of sorted chunks: an insert or delete moves at most one chunk's
// worth of keys (a single sorted array moves half the cache on average: 50 µs at 100,000 objects),
// and ranges and ranks stay cheap for lists and paging.

/** Chunks split past this size and merge with a neighbour below a quarter of it. */
const maxChunk = 512;

/** First position in a sorted array whose value is not below `key`. */
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

export class SortedKeys {
  #chunks: string[][] = [];
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** The chunk a key belongs in: the last whose first key is not above it. */
  #chunkFor(key: string): number {
    let lo = 0;
    let hi = this.#chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.#chunks[mid]?.[0] as string) <= key) lo = mid + 1;
      else hi = mid;
    }
    return Math.max(0, lo - 1);
  }

  /** Adds a key not yet present. */
  insert(key: string): void {
    if (this.#chunks.length === 0) {
      this.#chunks.push([key]);
      this.#size = 1;
      return;
    }
    const ci = this.#chunkFor(key);
    const chunk = this.#chunks[ci] as string[];
    chunk.splice(lowerBound(chunk, key), 0, key);
    this.#size++;
    if (chunk.length > maxChunk) this.#chunks.splice(ci + 1, 0, chunk.splice(chunk.length >>> 1));
  }

  /** Removes a key that is present. */
  delete(key: string): void {
    if (this.#chunks.length === 0) return;
    const ci = this.#chunkFor(key);
    const chunk = this.#chunks[ci] as string[];
    const i = lowerBound(chunk, key);
    if (chunk[i] !== key) return;
    chunk.splice(i, 1);
    this.#size--;
    if (chunk.length === 0) this.#chunks.splice(ci, 1);
    else if (chunk.length < maxChunk / 4) this.#mergeAround(ci);
  }

  #mergeAround(ci: number): void {
    const next = this.#chunks[ci + 1];
    if (next !== undefined && (this.#chunks[ci]?.length ?? 0) + next.length <= maxChunk) {
      (this.#chunks[ci] as string[]).push(...next);
      this.#chunks.splice(ci + 1, 1);
    }
  }

  /** Replaces everything with `keys`, sorted here. */
  reset(keys: readonly string[]): void {
    const sorted = [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    this.#chunks = [];
    for (let i = 0; i < sorted.length; i += maxChunk / 2)
      this.#chunks.push(sorted.slice(i, i + maxChunk / 2));
    this.#size = sorted.length;
  }

  /** The sorted chunks themselves (not a copy): read them, or share() them with another. */
  chunks(): readonly (readonly string[])[] {
    return this.#chunks;
  }

  /**
   * Replaces everything with `chunks`, taken as they are: the caller makes sure no one changes them
   * while this holds them (a copy for the first change, as KeyedStore does).
   */
  share(chunks: readonly (readonly string[])[]): void {
    this.#chunks = chunks as string[][];
    this.#size = this.#chunks.reduce((n, c) => n + c.length, 0);
  }

  /** How many keys are below `key`. */
  rank(key: string): number {
    if (this.#chunks.length === 0) return 0;
    const ci = this.#chunkFor(key);
    let n = 0;
    for (let i = 0; i < ci; i++) n += (this.#chunks[i] as string[]).length;
    return n + lowerBound(this.#chunks[ci] as string[], key);
  }

  /** The keys from `from` (inclusive) below `end` (exclusive), in order. */
  *range(from: string, end: string): Generator<string> {
    if (this.#chunks.length === 0) return;
    let ci = this.#chunkFor(from);
    let i = lowerBound(this.#chunks[ci] as string[], from);
    for (; ci < this.#chunks.length; ci++, i = 0) {
      const chunk = this.#chunks[ci] as string[];
      for (; i < chunk.length; i++) {
        const key = chunk[i] as string;
        if (key >= end) return;
        yield key;
      }
    }
  }
}
