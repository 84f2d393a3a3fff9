// apiserver_request_total and apiserver_request_duration_seconds counted in plain maps. prom-client
// checks and hashes a label set on every call (its children do too), which costs a request more
// than the counting; here a request joins its label values into a key and adds numbers, and the
// registry reads the sums at a scrape through the metric objects below, printing what prom-client's
// Counter and Histogram would.
import { durationBuckets, requestLabels, type RequestLabels } from './request-labels.js';

interface Total {
  readonly labels: RequestLabels & { readonly code: string };
  value: number;
}

interface Duration {
  readonly labels: RequestLabels;
  /** Observations per bucket (not cumulative), the last past every bound. */
  readonly buckets: number[];
  sum: number;
  count: number;
}

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

const keyOf = (labels: RequestLabels): string => {
  let key = '';
  for (const name of requestLabels) key += `${labels[name]}\u0000`;
  return key;
};

function bucketOf(seconds: number): number {
  for (let i = 0; i < durationBuckets.length; i++) if (seconds <= (durationBuckets[i] ?? 0)) return i;
  return durationBuckets.length;
}

export class RequestAggregates {
  readonly #totals = new Map<string, Total>();
  readonly #durations = new Map<string, Duration>();

  observe(labels: RequestLabels, result: { code: number; seconds: number; longRunning: boolean }): void {
    const key = keyOf(labels);
    const code = String(result.code);
    const totalKey = key + code;
    const total = this.#totals.get(totalKey);
    if (total === undefined) this.#totals.set(totalKey, { labels: { ...labels, code }, value: 1 });
    else total.value++;
    if (result.longRunning) return;
    let duration = this.#durations.get(key);
    if (duration === undefined) {
      duration = { labels, buckets: new Array<number>(durationBuckets.length + 1).fill(0), sum: 0, count: 0 };
      this.#durations.set(key, duration);
    }
    const i = bucketOf(result.seconds);
    duration.buckets[i] = (duration.buckets[i] ?? 0) + 1;
    duration.sum += result.seconds;
    duration.count++;
  }

  /** apiserver_request_total, as a prom-client Counter with these labels and `code` prints it. */
  totalMetric(opts: { name: string; help: string }): CollectedMetric {
    const totals = this.#totals;
    return {
      ...opts,
      type: 'counter',
      aggregator: 'sum',
      get: () =>
        Promise.resolve({
          ...opts,
          type: 'counter',
          aggregator: 'sum',
          values: [...totals.values()].map((t) => ({ value: t.value, labels: t.labels })),
        }),
    };
  }

  /** apiserver_request_duration_seconds, as a prom-client Histogram prints it: `le` first. */
  durationMetric(opts: { name: string; help: string }): CollectedMetric {
    const durations = this.#durations;
    const bucket = `${opts.name}_bucket`;
    return {
      ...opts,
      type: 'histogram',
      aggregator: 'sum',
      get: () => {
        const values: { value: number; labels: Record<string, string | number>; metricName: string }[] = [];
        for (const d of durations.values()) {
          let acc = 0;
          durationBuckets.forEach((le, i) => {
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
      },
    };
  }
}
