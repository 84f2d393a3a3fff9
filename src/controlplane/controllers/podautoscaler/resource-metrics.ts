// What the HPA controller reads from the resource metrics API (metrics.k8s.io/v1beta1 PodMetrics,
// pkg/controller/podautoscaler/metrics/client.go): the list of PodMetrics, and the per-pod usage of
// one resource (summed over the containers, or of one named container) with the errors kube's
// resource metrics client words.
import { milliValue, parseQuantity } from '../../../machinery/quantity/quantity.js';
import { goPathEscape, goQuery } from './go-url.js';
import { parseBody, readAnswer, type MetricsAPIGetter } from './metrics-api-getter.js';
import type { Calculated, PodMetricsInfo } from './replica-calculator.js';

/** metrics.k8s.io/v1beta1 PodMetrics, the parts the controller reads. */
export interface PodMetricsAnswer {
  metadata?: { name?: string; namespace?: string };
  timestamp?: string;
  window?: string;
  containers?: { name: string; usage?: Record<string, string> }[];
}

export interface PodMetricsListAnswer {
  items?: PodMetricsAnswer[];
}

/** A list of PodMetrics, or the client's error text (`the server could not find …`). */
export type PodMetricsResult =
  | { readonly ok: true; readonly items: readonly PodMetricsAnswer[] }
  | {
      readonly ok: false;
      readonly error: string;
    };

/** PodMetricses(namespace).List: the PodMetrics of the pods the label selector (its string form) matches. */
export async function listPodMetrics(
  getter: MetricsAPIGetter,
  query: { namespace: string; labelSelector: string },
): Promise<PodMetricsResult> {
  const gv = { group: 'metrics.k8s.io', version: 'v1beta1' };
  const path = `/apis/metrics.k8s.io/v1beta1/namespaces/${goPathEscape(query.namespace)}/pods${goQuery({ labelSelector: query.labelSelector })}`;
  const read = readAnswer(await getter.get(gv, path), { group: gv.group, resource: 'pods' });
  if (!read.ok) return read;
  const parsed = parseBody(read.body);
  if (!parsed.ok) return parsed;
  return { ok: true, items: (parsed.value as PodMetricsListAnswer | null)?.items ?? [] };
}

/** A Go duration as metrics-server writes it (`30s`, `1m0.5s`, `1.5s`), in ms. */
export function durationMs(text: string | undefined): number {
  let total = 0;
  const units: Readonly<Record<string, number>> = {
    h: 3_600_000,
    m: 60_000,
    s: 1000,
    ms: 1,
    us: 0.001,
    ns: 1e-6,
  };
  for (const [, n = '0', unit = 's'] of (text ?? '').matchAll(/([0-9.]+)(h|ms|m|s|us|ns)/g))
    total += Number.parseFloat(n) * (units[unit] ?? 0);
  return total;
}

const usageOf = (usage: Record<string, string> | undefined, resource: string): number | undefined => {
  const text = usage?.[resource];
  if (text === undefined) return undefined;
  const q = parseQuantity(text);
  return q.ok ? Number(milliValue(q.quantity)) : undefined;
};

function sample(m: PodMetricsAnswer, value: number): { value: number; timestamp: number; windowMs: number } {
  const t = Date.parse(m.timestamp ?? '');
  return { value, timestamp: Number.isNaN(t) ? 0 : t, windowMs: durationMs(m.window) };
}

/** GetResourceMetric: usage per pod name, and the first item's timestamp. */
export function resourceMetric(
  items: readonly PodMetricsAnswer[],
  want: { resource: string; container: string },
): Calculated<{ metrics: PodMetricsInfo; timestamp: number }> {
  if (items.length === 0) return { ok: false, error: 'no metrics returned from resource metrics API' };
  const metrics: PodMetricsInfo = new Map();
  for (const m of items) {
    const name = m.metadata?.name ?? '';
    const containers = m.containers ?? [];
    if (want.container !== '') {
      const c = containers.find((x) => x.name === want.container);
      if (c === undefined)
        return {
          ok: false,
          error: `failed to get container metrics: container ${want.container} not present in metrics for pod ${m.metadata?.namespace ?? ''}/${name}`,
        };
      const value = usageOf(c.usage, want.resource);
      if (value !== undefined) metrics.set(name, sample(m, value));
      continue;
    }
    let sum = 0;
    let missing = containers.length === 0;
    for (const c of containers) {
      const value = usageOf(c.usage, want.resource);
      if (value === undefined) {
        missing = true;
        break;
      }
      sum += value;
    }
    if (!missing) metrics.set(name, sample(m, sum));
  }
  const first = items[0];
  return { ok: true, metrics, timestamp: first === undefined ? 0 : sample(first, 0).timestamp };
}
