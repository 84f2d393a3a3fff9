// When each phase of a robustness scenario happened, in milliseconds from its start: printed with
// the verdict, so a failing history can be read against the faults.
export class Timeline {
  readonly #t0 = Date.now();
  readonly #phases: string[] = [];

  /** Notes `what` at the time elapsed so far (`what` ends with "at" or "until"). */
  mark(what: string): void {
    this.#phases.push(`${what} ${Date.now() - this.#t0} ms`);
  }

  toString(): string {
    return this.#phases.join(', ');
  }
}
