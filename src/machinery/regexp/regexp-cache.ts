// Compiled patterns by their text, for callers that receive a pattern at evaluation time (CEL's
// matches() and find()), as kube-openapi keeps its compiled patterns. Bounded: a rule may build its
// patterns from the object, and those must not pile up; the oldest entry makes room.
import { GoRegexp } from './go-regexp.js';

export class RegexpCache {
  readonly #entries = new Map<string, GoRegexp>();
  readonly #limit: number;

  constructor(limit = 512) {
    this.#limit = limit;
  }

  /** The compiled pattern; throws RegexpSyntaxError (not cached) when it does not compile. */
  compile(pattern: string): GoRegexp {
    const hit = this.#entries.get(pattern);
    if (hit !== undefined) return hit;
    const re = GoRegexp.compile(pattern);
    if (this.#entries.size >= this.#limit) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
    this.#entries.set(pattern, re);
    return re;
  }

  get size(): number {
    return this.#entries.size;
  }
}
