// kube's external metrics client (k8s.io/metrics/pkg/client/external_metrics: always
// external.metrics.k8s.io/v1beta1, `namespaces/<ns>/<metric>?labelSelector=…`) and the HPA's read of
// it (GetExternalMetric in pkg/controller/podautoscaler/metrics/client.go): every value the
// selector matches, in milli-units, with kube's error texts.
import { milliValue, parseQuantity } from '../../../machinery/quantity/quantity.js';
import { goPathEscape, goQuery } from './go-url.js';
import { parseBody, readAnswer, type MetricsAPIGetter } from './metrics-api-getter.js';
import type { Calculated } from './replica-calculator.js';

export const externalMetricsGroup = 'external.metrics.k8s.io';
const version = 'v1beta1';

/** external.metrics.k8s.io/v1beta1 ExternalMetricValue, the parts read. */
interface WireExternalMetricValue {
  metricName?: string;
  timestamp?: string;
  value?: string | number;
}

export interface ExternalMetricQuery {
  readonly namespace: string;
  readonly metricName: string;
  /** The metric's label selector in its string form. */
  readonly selector: string;
}

const fail = (error: string): { ok: false; error: string } => ({
  ok: false,
  error: `unable to fetch metrics from external metrics API: ${error}`,
});

/** GetExternalMetric: the values, and the first one's timestamp. */
export async function getExternalMetric(
  getter: MetricsAPIGetter,
  q: ExternalMetricQuery,
): Promise<Calculated<{ values: number[]; timestamp: number }>> {
  const path = `/apis/${externalMetricsGroup}/${version}/namespaces/${goPathEscape(q.namespace)}/${goPathEscape(q.metricName)}${goQuery({ labelSelector: q.selector })}`;
  const answer = await getter.get({ group: externalMetricsGroup, version }, path);
  const read = readAnswer(answer, { group: externalMetricsGroup, resource: q.metricName });
  if (!read.ok) return fail(read.error);
  const parsed = parseBody(read.body);
  if (!parsed.ok) return fail(parsed.error);
  const items = ((parsed.value ?? {}) as { items?: WireExternalMetricValue[] }).items ?? [];
  if (items.length === 0) return { ok: false, error: 'no metrics returned from external metrics API' };
  const values: number[] = [];
  for (const m of items) {
    const parsedValue = m.value === undefined ? undefined : parseQuantity(String(m.value));
    if (parsedValue?.ok === false) return fail(parsedValue.error);
    values.push(parsedValue === undefined ? 0 : Number(milliValue(parsedValue.quantity)));
  }
  const t = Date.parse(items[0]?.timestamp ?? '');
  return { ok: true, values, timestamp: Number.isNaN(t) ? 0 : t };
}
