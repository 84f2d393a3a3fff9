// apiserver_request_total, apiserver_request_duration_seconds and
// apiserver_request_sli_duration_seconds counted in plain maps. prom-client checks and hashes a label
// set on every call (its children do too), which costs a request more than the counting; here a
// request joins its label values into a key and adds numbers, and the registry reads the sums at a
// scrape through the metric objects below, printing what prom-client's Counter and Histogram would.
import { HistogramSeries, type CollectedMetric } from './histogram-series.js';
import {
  durationBuckets,
  requestLabels,
  sliDurationBuckets,
  sliLabelsOf,
  type RequestLabels,
  type SLILabels,
} from './request-labels.js';

interface Total {
  readonly labels: RequestLabels & { readonly code: string };
  value: number;
}

const keyOf = (labels: RequestLabels): string => {
  let key = '';
  for (const name of requestLabels) key += `${labels[name]}\u0000`;
  return key;
};

/** One request's outcome. `sliSeconds`: its latency without webhooks and queueing (kube's SLI). */
export interface RequestResult {
  readonly code: number;
  readonly seconds: number;
  readonly sliSeconds: number;
  readonly longRunning: boolean;
}

export class RequestAggregates {
  readonly #totals = new Map<string, Total>();
  readonly #durations = new HistogramSeries<RequestLabels, RequestLabels>(durationBuckets, (l) => l);
  // Keyed as the durations are, with dry_run left empty: the SLI has no dry_run label.
  readonly #sli = new HistogramSeries<RequestLabels, SLILabels>(sliDurationBuckets, sliLabelsOf);

  observe(labels: RequestLabels, result: RequestResult): void {
    const key = keyOf(labels);
    const code = String(result.code);
    const totalKey = key + code;
    const total = this.#totals.get(totalKey);
    if (total === undefined) this.#totals.set(totalKey, { labels: { ...labels, code }, value: 1 });
    else total.value++;
    if (result.longRunning) return;
    this.#durations.observe(key, labels, result.seconds);
    const sliKey = labels.dry_run === '' ? key : keyOf({ ...labels, dry_run: '' });
    this.#sli.observe(sliKey, labels, result.sliSeconds);
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
    return this.#durations.metric(opts);
  }

  /** apiserver_request_sli_duration_seconds (no dry_run label, kube's SLI buckets). */
  sliDurationMetric(opts: { name: string; help: string }): CollectedMetric {
    return this.#sli.metric(opts);
  }
}
