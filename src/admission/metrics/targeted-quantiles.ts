// A stream's quantiles within a rank error per target (Cormode, Korn, Muthukrishnan and Srivastava,
// "Effective computation of biased quantiles over data streams", 2005, targeted form), as Go's
// Prometheus summaries estimate theirs: a sorted list of samples, each standing for `width`
// observations with rank uncertainty `delta`, merged with each sorted batch and then compressed as
// far as the targets' error allows. Exact until a first batch has filled its buffer.

export interface QuantileTarget {
  /** The quantile, 0 < quantile < 1. */
  readonly quantile: number;
  /** The rank error allowed, as a fraction of the count. */
  readonly epsilon: number;
}

interface Sample {
  readonly value: number;
  width: number;
  readonly delta: number;
}

/** Below this many observations the stream keeps them all (the buffer size of Go's streams). */
const exactUpTo = 500;

export class TargetedQuantiles {
  readonly #targets: readonly QuantileTarget[];
  /** All observations, sorted, while there are few; undefined once compressed into samples. */
  #exact: number[] | undefined = [];
  #samples: Sample[] = [];
  #n = 0;

  constructor(targets: readonly QuantileTarget[]) {
    this.#targets = targets;
  }

  get count(): number {
    return this.#n + (this.#exact?.length ?? 0);
  }

  reset(): void {
    this.#exact = [];
    this.#samples = [];
    this.#n = 0;
  }

  /** Adds observations given in ascending order. */
  insertSorted(values: ArrayLike<number>): void {
    const exact = this.#exact;
    if (exact !== undefined) {
      for (let i = 0; i < values.length; i++) exact.push(values[i] as number);
      if (exact.length < exactUpTo) {
        exact.sort((a, b) => a - b);
        return;
      }
      this.#exact = undefined;
      exact.sort((a, b) => a - b);
      this.#merge(exact);
      return;
    }
    this.#merge(values);
  }

  /** The estimate of quantile `q`; NaN without observations. */
  query(q: number): number {
    const exact = this.#exact;
    if (exact !== undefined) {
      if (exact.length === 0) return NaN;
      const i = Math.ceil(exact.length * q);
      return exact[i > 0 ? i - 1 : 0] as number;
    }
    const samples = this.#samples;
    let t = Math.ceil(q * this.#n);
    t += Math.ceil(this.#allowed(t) / 2);
    let p = samples[0] as Sample;
    let r = 0;
    for (let i = 1; i < samples.length; i++) {
      const c = samples[i] as Sample;
      r += p.width;
      if (r + c.width + c.delta > t) return p.value;
      p = c;
    }
    return p.value;
  }

  /** The rank error the targets allow at rank `r`. */
  #allowed(r: number): number {
    const n = this.#n;
    let m = Number.MAX_VALUE;
    for (const { quantile: q, epsilon: e } of this.#targets) {
      const f = q * n <= r ? (2 * e * r) / q : (2 * e * (n - r)) / (1 - q);
      if (f < m) m = f;
    }
    return m;
  }

  #merge(values: ArrayLike<number>): void {
    const old = this.#samples;
    const merged: Sample[] = [];
    let r = 0;
    let i = 0;
    for (let k = 0; k < values.length; k++) {
      const v = values[k] as number;
      while (i < old.length && (old[i] as Sample).value <= v) {
        const c = old[i] as Sample;
        merged.push(c);
        r += c.width;
        i++;
      }
      // A sample inside the list is as uncertain as the error allows there; at the end, not at all.
      const delta = i < old.length ? Math.max(0, Math.floor(this.#allowed(r)) - 1) : 0;
      merged.push({ value: v, width: 1, delta });
      this.#n++;
      r++;
    }
    for (; i < old.length; i++) merged.push(old[i] as Sample);
    this.#samples = merged;
    this.#compress();
  }

  #compress(): void {
    const s = this.#samples;
    if (s.length < 2) return;
    const kept: Sample[] = [];
    let x = s[s.length - 1] as Sample;
    let r = this.#n - 1 - x.width;
    for (let i = s.length - 2; i >= 0; i--) {
      const c = s[i] as Sample;
      if (c.width + x.width + x.delta <= this.#allowed(r)) {
        x.width += c.width;
      } else {
        kept.push(x);
        x = c;
      }
      r -= c.width;
    }
    kept.push(x);
    this.#samples = kept.reverse();
  }
}
