// The workqueue_* families of k8s.io/component-base/metrics/prometheus/workqueue/metrics.go, with
// kube's names, help and buckets, one series per queue name, read at each scrape from what the queues
// count (workqueue-metrics.ts). Bucket bounds are printed as Go prints them (`le="1e-08"`,
// `le="9.999999999999999e-06"`), after the `name` label, as kube's exposition does.
import type { Metric, Registry } from 'prom-client';
import {
  workqueueDurationBounds,
  type DurationHistogram,
  type WorkqueueMetrics,
  type WorkqueueReading,
} from './workqueue-metrics.js';

type Value = { value: number; labels: Record<string, string | number>; metricName?: string };

/** A float as Go's strconv.FormatFloat(f, 'g', -1, 64) writes it: shortest digits, %e outside [1e-4, 1e6). */
export function goFloatText(n: number): string {
  const [digits = '', exponent = '0'] = n.toExponential().split('e');
  const exp = Number(exponent);
  if (exp >= -4 && exp < 6) return String(n);
  const abs = Math.abs(exp);
  return `${digits}e${exp < 0 ? '-' : '+'}${abs < 10 ? '0' : ''}${abs}`;
}

const boundTexts = workqueueDurationBounds.map(goFloatText);

function histogramValues(name: string, of: (r: WorkqueueReading) => DurationHistogram) {
  return (readings: readonly WorkqueueReading[]): Value[] => {
    const values: Value[] = [];
    for (const r of readings) {
      const queue = r.series.name;
      const h = of(r);
      let acc = 0;
      boundTexts.forEach((le, i) => {
        acc += h.buckets[i] ?? 0;
        values.push({ value: acc, labels: { name: queue, le }, metricName: `${name}_bucket` });
      });
      values.push(
        { value: h.count, labels: { name: queue, le: '+Inf' }, metricName: `${name}_bucket` },
        { value: h.sum, labels: { name: queue }, metricName: `${name}_sum` },
        { value: h.count, labels: { name: queue }, metricName: `${name}_count` },
      );
    }
    return values;
  };
}

function perName(of: (r: WorkqueueReading) => number) {
  return (readings: readonly WorkqueueReading[]): Value[] =>
    readings.map((r) => ({ value: of(r), labels: { name: r.series.name } }));
}

interface Family {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'gauge' | 'histogram';
  readonly read: (readings: readonly WorkqueueReading[]) => Value[];
}

const families: readonly Family[] = [
  {
    name: 'workqueue_depth',
    help: 'Current depth of workqueue',
    type: 'gauge',
    read: perName((r) => r.series.depth),
  },
  {
    name: 'workqueue_adds_total',
    help: 'Total number of adds handled by workqueue',
    type: 'counter',
    read: perName((r) => r.series.adds),
  },
  {
    name: 'workqueue_queue_duration_seconds',
    help: 'How long in seconds an item stays in workqueue before being requested.',
    type: 'histogram',
    read: histogramValues('workqueue_queue_duration_seconds', (r) => r.series.queueDuration),
  },
  {
    name: 'workqueue_work_duration_seconds',
    help: 'How long in seconds processing an item from workqueue takes.',
    type: 'histogram',
    read: histogramValues('workqueue_work_duration_seconds', (r) => r.series.workDuration),
  },
  {
    name: 'workqueue_unfinished_work_seconds',
    help: "How many seconds of work has done that is in progress and hasn't been observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.",
    type: 'gauge',
    read: perName((r) => r.unfinishedSeconds),
  },
  {
    name: 'workqueue_longest_running_processor_seconds',
    help: 'How many seconds has the longest running processor for workqueue been running.',
    type: 'gauge',
    read: perName((r) => r.longestRunningSeconds),
  },
  {
    name: 'workqueue_retries_total',
    help: 'Total number of retries handled by workqueue',
    type: 'counter',
    read: perName((r) => r.series.retries),
  },
];

/** Registers the workqueue families, read from `source()` (nothing until the queues' metrics exist). */
export function registerWorkqueueMetrics(
  registry: Registry,
  source: () => WorkqueueMetrics | undefined,
): void {
  for (const f of families) {
    const { name, help, type, read } = f;
    const get = (): Promise<{
      name: string;
      help: string;
      type: string;
      aggregator: string;
      values: Value[];
    }> => {
      const m = source();
      return Promise.resolve({
        name,
        help,
        type,
        aggregator: 'sum',
        values: m === undefined ? [] : read(m.read()),
      });
    };
    registry.registerMetric({ name, help, type, aggregator: 'sum', get } as unknown as Metric);
  }
}
