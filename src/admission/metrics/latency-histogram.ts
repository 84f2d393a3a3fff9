// One histogram series counted in place: observing finds the bucket and adds, nothing more, so the
// admission chain can observe each plugin of every write. Read at a scrape.

export class LatencyHistogram {
  readonly #bounds: readonly number[];
  /** Observations per bucket (not cumulative), the last past every bound. */
  readonly #buckets: number[];
  #sum = 0;
  #count = 0;

  constructor(bounds: readonly number[]) {
    this.#bounds = bounds;
    this.#buckets = new Array<number>(bounds.length + 1).fill(0);
  }

  observe(seconds: number): void {
    const bounds = this.#bounds;
    let i = 0;
    // A bound is the bucket's upper limit, inclusive (Prometheus' `le`).
    while (i < bounds.length && seconds > (bounds[i] as number)) i++;
    this.#buckets[i] = (this.#buckets[i] as number) + 1;
    this.#sum += seconds;
    this.#count++;
  }

  get bounds(): readonly number[] {
    return this.#bounds;
  }

  /** The cumulative count at each bound, then the total (`+Inf`). */
  cumulative(): number[] {
    let acc = 0;
    return this.#buckets.map((n) => (acc += n));
  }

  get sum(): number {
    return this.#sum;
  }

  get count(): number {
    return this.#count;
  }
}
