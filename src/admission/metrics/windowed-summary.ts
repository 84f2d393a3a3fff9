// A summary's quantiles over a sliding window, as a Go Prometheus summary keeps them: observations
// gather in a buffer, which at 500 or at a scrape is sorted once and added to each of five streams;
// the streams start a fifth of the window apart, and the oldest (the head) answers, so a quantile
// covers between four fifths of the window and all of it. Observing writes one number.
import { TargetedQuantiles, type QuantileTarget } from './targeted-quantiles.js';

const bufferSize = 500;
const ageBuckets = 5;

export interface WindowedSummaryOptions {
  readonly targets: readonly QuantileTarget[];
  readonly maxAgeMs: number;
  /** The wall clock, in ms. */
  readonly now: () => number;
}

export class WindowedSummary {
  readonly #o: WindowedSummaryOptions;
  readonly #streamMs: number;
  #buffer: Float64Array | undefined;
  #buffered = 0;
  readonly #streams: TargetedQuantiles[];
  #head = 0;
  /** When the head stream is reset and the next one becomes the head. */
  #headExpires: number;

  constructor(o: WindowedSummaryOptions) {
    this.#o = o;
    this.#streamMs = o.maxAgeMs / ageBuckets;
    this.#streams = Array.from({ length: ageBuckets }, () => new TargetedQuantiles(o.targets));
    this.#headExpires = o.now() + this.#streamMs;
  }

  observe(value: number): void {
    // The buffer is made at the first observation: most series never see one.
    const buffer = (this.#buffer ??= new Float64Array(bufferSize));
    buffer[this.#buffered++] = value;
    if (this.#buffered === bufferSize) this.#flush();
  }

  /** The quantiles of the window, in the targets' order: NaN for each when it saw nothing. */
  quantiles(): number[] {
    this.#flush();
    const head = this.#streams[this.#head] as TargetedQuantiles;
    return this.#o.targets.map((t) => (head.count === 0 ? NaN : head.query(t.quantile)));
  }

  #flush(): void {
    this.#rotate();
    if (this.#buffered === 0 || this.#buffer === undefined) return;
    const batch = this.#buffer.subarray(0, this.#buffered).sort();
    for (const s of this.#streams) s.insertSorted(batch);
    this.#buffered = 0;
  }

  /** Resets each stream whose time is up; the next becomes the head. */
  #rotate(): void {
    const now = this.#o.now();
    for (let i = 0; i < ageBuckets && now > this.#headExpires; i++) {
      (this.#streams[this.#head] as TargetedQuantiles).reset();
      this.#head = (this.#head + 1) % ageBuckets;
      this.#headExpires += this.#streamMs;
    }
    // Idle past the whole window: every stream was reset above.
    if (now > this.#headExpires) this.#headExpires = now + this.#streamMs;
  }
}
