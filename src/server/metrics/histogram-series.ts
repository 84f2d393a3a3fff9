// A histogram counted in a plain map of arrays, read by prom-client's Registry at a scrape as a
// metric object that prints what prom-client's own Histogram would: its callers join their label
// values into a key, which costs a request less than prom-client's checks and hashing of a label set.

/** What prom-client's Registry reads of a metric (its `get()`). */
export interface CollectedMetric {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';
  readonly aggregator: 'sum';
  get(): Promise<{
    name: string;
    help: string;
    type: string;
    aggregator: string;
    values: { value: number; labels: Record<string, string | number>; metricName?: string }[];
  }>;
}

interface Series<L> {
  readonly labels: L;
  /** Observations per bucket (not cumulative), the last past every bound. */
  readonly buckets: number[];
  sum: number;
  count: number;
}

/**
 * One histogram's series by their labels' key, as prom-client's Histogram would count them. A series'
 * labels are made from what the caller observes with (`S`) by `toLabels`, once, when the series is
 * new: an observation allocates nothing.
 */
export class HistogramSeries<S, L extends Readonly<Record<string, string>>> {
  readonly #bounds: readonly number[];
  readonly #toLabels: (source: S) => L;
  readonly #series = new Map<string, Series<L>>();

  constructor(bounds: readonly number[], toLabels: (source: S) => L) {
    this.#bounds = bounds;
    this.#toLabels = toLabels;
  }

  observe(key: string, source: S, value: number): void {
    let s = this.#series.get(key);
    if (s === undefined) {
      const labels = this.#toLabels(source);
      s = { labels, buckets: new Array<number>(this.#bounds.length + 1).fill(0), sum: 0, count: 0 };
      this.#series.set(key, s);
    }
    const bounds = this.#bounds;
    let i = 0;
    while (i < bounds.length && value > (bounds[i] ?? 0)) i++;
    s.buckets[i] = (s.buckets[i] ?? 0) + 1;
    s.sum += value;
    s.count++;
  }

  /** The histogram as a prom-client Histogram prints it: `le` first. */
  metric(opts: { name: string; help: string }): CollectedMetric {
    const bucket = `${opts.name}_bucket`;
    const get: CollectedMetric['get'] = () => {
      const values: { value: number; labels: Record<string, string | number>; metricName: string }[] = [];
      for (const d of this.#series.values()) {
        let acc = 0;
        this.#bounds.forEach((le, i) => {
          acc += d.buckets[i] ?? 0;
          values.push({ value: acc, labels: { le, ...d.labels }, metricName: bucket });
        });
        values.push(
          { value: d.count, labels: { le: '+Inf', ...d.labels }, metricName: bucket },
          { value: d.sum, labels: { ...d.labels }, metricName: `${opts.name}_sum` },
          { value: d.count, labels: { ...d.labels }, metricName: `${opts.name}_count` },
        );
      }
      return Promise.resolve({ ...opts, type: 'histogram', aggregator: 'sum', values });
    };
    return { ...opts, type: 'histogram', aggregator: 'sum', get };
  }
}
