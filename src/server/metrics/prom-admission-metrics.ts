// Admission's metrics (k8s.io/apiserver/pkg/admission/metrics/metrics.go) with kube's names and
// help, read at each scrape from what the chain and the webhook plugins count
// (src/admission/metrics/admission-metrics.ts). A series shows once something was observed in it.
// The step summary has component-base's default quantiles (0.5, 0.9, 0.99) over kube's 5 hours.
import type { Metric, Registry } from 'prom-client';
import type {
  AdmissionMetrics,
  Count,
  SeriesFamily,
  StepSeries,
} from '../../admission/metrics/admission-metrics.js';
import type { LatencyHistogram } from '../../admission/metrics/latency-histogram.js';

type Value = { value: number; labels: Record<string, string | number>; metricName?: string };

type Read = (m: AdmissionMetrics) => Value[];

interface Described {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram' | 'summary';
  readonly read: (name: string) => Read;
}

function histogram<T>(
  family: (m: AdmissionMetrics) => SeriesFamily<T>,
  histogramOf: (series: T) => LatencyHistogram = (series) => series as LatencyHistogram,
) {
  return (name: string): Read =>
    (m) => {
      const values: Value[] = [];
      for (const { labels, value } of family(m).series()) {
        const h = histogramOf(value);
        if (h.count === 0) continue;
        const counts = h.cumulative();
        h.bounds.forEach((le, i) => {
          values.push({ value: counts[i] ?? 0, labels: { le, ...labels }, metricName: `${name}_bucket` });
        });
        values.push(
          { value: h.count, labels: { le: '+Inf', ...labels }, metricName: `${name}_bucket` },
          { value: h.sum, labels: { ...labels }, metricName: `${name}_sum` },
          { value: h.count, labels: { ...labels }, metricName: `${name}_count` },
        );
      }
      return values;
    };
}

function summary(family: (m: AdmissionMetrics) => SeriesFamily<StepSeries>) {
  return (name: string): Read =>
    (m) => {
      const values: Value[] = [];
      for (const { labels, value: s } of family(m).series()) {
        const h = s.histogram;
        if (h.count === 0) continue;
        for (const { quantile, value } of s.quantiles())
          values.push({ value, labels: { quantile, ...labels }, metricName: name });
        values.push(
          { value: h.sum, labels: { ...labels }, metricName: `${name}_sum` },
          { value: h.count, labels: { ...labels }, metricName: `${name}_count` },
        );
      }
      return values;
    };
}

function counter(family: (m: AdmissionMetrics) => SeriesFamily<Count>) {
  return (): Read => (m) =>
    [...family(m).series()].map(({ labels, value }) => ({ value: value.value, labels: { ...labels } }));
}

const described: readonly Described[] = [
  {
    name: 'apiserver_admission_step_admission_duration_seconds',
    help: 'Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).',
    type: 'histogram',
    read: histogram(
      (m) => m.step,
      (s) => s.histogram,
    ),
  },
  {
    name: 'apiserver_admission_step_admission_duration_seconds_summary',
    help: 'Admission sub-step latency summary in seconds, broken out for each operation and API resource and step type (validate or admit).',
    type: 'summary',
    read: summary((m) => m.step),
  },
  {
    name: 'apiserver_admission_controller_admission_duration_seconds',
    help: 'Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
    type: 'histogram',
    read: histogram((m) => m.controller),
  },
  {
    name: 'apiserver_admission_webhook_admission_duration_seconds',
    help: 'Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
    type: 'histogram',
    read: histogram((m) => m.webhook),
  },
  {
    name: 'apiserver_admission_webhook_rejection_count',
    help: 'Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
    type: 'counter',
    read: counter((m) => m.webhookRejections),
  },
  {
    name: 'apiserver_admission_webhook_fail_open_count',
    help: 'Admission webhook fail open count, identified by name and broken out for each admission type (validating or admit).',
    type: 'counter',
    read: counter((m) => m.webhookFailOpen),
  },
  {
    name: 'apiserver_admission_webhook_request_total',
    help: 'Admission webhook request total, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify whether the request was rejected or not and an HTTP status code. Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
    type: 'counter',
    read: counter((m) => m.webhookRequests),
  },
  {
    name: 'apiserver_admission_match_condition_evaluation_errors_total',
    help: 'Admission match condition evaluation errors count, identified by name of resource containing the match condition and broken out for each kind containing matchConditions (webhook or policy), operation and admission type (validate or admit).',
    type: 'counter',
    read: counter((m) => m.matchConditionErrors),
  },
  {
    name: 'apiserver_admission_match_condition_exclusions_total',
    help: 'Admission match condition evaluation exclusions count, identified by name of resource containing the match condition and broken out for each kind containing matchConditions (webhook or policy), operation and admission type (validate or admit).',
    type: 'counter',
    read: counter((m) => m.matchConditionExclusions),
  },
  {
    name: 'apiserver_admission_match_condition_evaluation_seconds',
    help: 'Admission match condition evaluation time in seconds, identified by name and broken out for each kind containing matchConditions (webhook or policy), operation and type (validate or admit).',
    type: 'histogram',
    read: histogram((m) => m.matchConditionSeconds),
  },
];

/** Registers admission's metrics, read from `source()` (nothing until admission is attached). */
export function registerAdmissionMetrics(
  registry: Registry,
  source: () => AdmissionMetrics | undefined,
): void {
  for (const d of described) {
    const read = d.read(d.name);
    const { name, help, type } = d;
    const get = (): Promise<{
      name: string;
      help: string;
      type: string;
      aggregator: string;
      values: Value[];
    }> => {
      const m = source();
      return Promise.resolve({ name, help, type, aggregator: 'sum', values: m === undefined ? [] : read(m) });
    };
    registry.registerMetric({ name, help, type, aggregator: 'sum', get } as unknown as Metric);
  }
}
