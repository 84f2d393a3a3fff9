// kube's custom metrics client (k8s.io/metrics/pkg/client/custom_metrics: discovery.go picks the
// preferred served version of custom.metrics.k8s.io among v1beta2 and v1beta1, versioned_client.go
// builds the paths and reads a MetricValueList of either version) and the HPA's two reads of it
// (GetRawMetric and GetObjectMetric in pkg/controller/podautoscaler/metrics/client.go), values in
// milli-units, with kube's error texts.
import type { CrossVersionObjectReference } from '../../../api/autoscaling/v2/types.js';
import { milliValue, parseQuantity } from '../../../machinery/quantity/quantity.js';
import { goPathEscape, goQuery } from './go-url.js';
import { parseBody, readAnswer, type MetricsAPIGetter } from './metrics-api-getter.js';
import type { Calculated, PodMetricsInfo } from './replica-calculator.js';

export const customMetricsGroup = 'custom.metrics.k8s.io';
const metricVersions: readonly string[] = ['v1beta2', 'v1beta1'];
/** metricServerDefaultMetricWindow: a value without a window is taken as one minute's. */
const defaultWindowMs = 60_000;

/** A MetricValue, the parts read: v1beta2 has `windowSeconds` where v1beta1 has `window`. */
interface WireMetricValue {
  describedObject?: { name?: string };
  timestamp?: string;
  windowSeconds?: number;
  window?: number;
  // Go reads a Quantity from a JSON string or a bare number.
  value?: string | number;
}

export interface MetricValue {
  readonly objectName: string;
  readonly timestamp: number;
  readonly windowMs: number | undefined;
  /** The value in milli-units. */
  readonly value: number;
}

/** A group and kind's resource as the RESTMapper maps it (`deployments.apps`), or the mapper's error. */
export type ResourceMapper = (gk: { group: string; kind: string }) => Calculated<{ resource: string }>;

/** apiVersionsFromDiscovery.PreferredVersion: the group's preferred version if known, else the first known. */
export async function preferredCustomMetricsVersion(
  getter: MetricsAPIGetter,
): Promise<Calculated<{ version: string }>> {
  let versions: readonly string[];
  try {
    versions = await getter.groupVersions(customMetricsGroup);
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  if (versions.length === 0)
    return { ok: false, error: `no custom metrics API (${customMetricsGroup}) registered` };
  const version = versions.find((v) => metricVersions.includes(v));
  if (version === undefined) return { ok: false, error: 'no known available metric versions found' };
  return { ok: true, version };
}

interface MetricRequest {
  readonly version: string;
  readonly namespace: string;
  /** `pods`, `deployments.apps`, or `metrics` for a namespace's own metrics. */
  readonly resource: string;
  readonly name: string;
  readonly subresource: string;
  readonly params: Readonly<Record<string, string>>;
}

function decodeValue(w: WireMetricValue, v1beta1: boolean): Calculated<{ value: MetricValue }> {
  let value = 0;
  if (w.value !== undefined) {
    const q = parseQuantity(String(w.value));
    if (!q.ok) return q;
    value = Number(milliValue(q.quantity));
  }
  const seconds = v1beta1 ? w.window : w.windowSeconds;
  const t = Date.parse(w.timestamp ?? '');
  return {
    ok: true,
    value: {
      objectName: w.describedObject?.name ?? '',
      timestamp: Number.isNaN(t) ? 0 : t,
      windowMs: typeof seconds === 'number' ? seconds * 1000 : undefined,
      value,
    },
  };
}

/** The MetricValueList a GET returns, in either version. */
async function getMetricValues(
  getter: MetricsAPIGetter,
  r: MetricRequest,
): Promise<Calculated<{ items: MetricValue[] }>> {
  const sub = r.subresource === '' ? '' : `/${goPathEscape(r.subresource)}`;
  const path = `/apis/${customMetricsGroup}/${r.version}/namespaces/${goPathEscape(r.namespace)}/${goPathEscape(r.resource)}/${goPathEscape(r.name)}${sub}${goQuery(r.params)}`;
  const answer = await getter.get({ group: customMetricsGroup, version: r.version }, path);
  const read = readAnswer(answer, { group: customMetricsGroup, resource: r.resource, name: r.name });
  if (!read.ok) return read;
  const parsed = parseBody(read.body);
  if (!parsed.ok) return parsed;
  const list = (parsed.value ?? {}) as { kind?: unknown; apiVersion?: unknown; items?: WireMetricValue[] };
  if (typeof list.kind !== 'string' || list.kind === '')
    return { ok: false, error: `Object 'Kind' is missing in '${read.body}'` };
  if (list.kind !== 'MetricValueList')
    return {
      ok: false,
      error: `the custom metrics API server didn't return MetricValueList, the type is ${list.kind}`,
    };
  const v1beta1 = list.apiVersion === `${customMetricsGroup}/v1beta1`;
  const items: MetricValue[] = [];
  for (const w of list.items ?? []) {
    const decoded = decodeValue(w, v1beta1);
    if (!decoded.ok) return decoded;
    items.push(decoded.value);
  }
  return { ok: true, items };
}

const fromCustomAPI = (error: string): { ok: false; error: string } => ({
  ok: false,
  error: `unable to fetch metrics from custom metrics API: ${error}`,
});

export interface PodsMetricQuery {
  readonly namespace: string;
  readonly metricName: string;
  /** The pods' label selector and the metric's, in their string forms. */
  readonly selector: string;
  readonly metricSelector: string;
}

/** GetRawMetric: NamespacedMetrics(ns).GetForObjects(Pod, …), each pod's value by name. */
export async function getRawMetric(
  getter: MetricsAPIGetter,
  q: PodsMetricQuery,
): Promise<Calculated<{ metrics: PodMetricsInfo; timestamp: number }>> {
  const preferred = await preferredCustomMetricsVersion(getter);
  if (!preferred.ok) return fromCustomAPI(preferred.error);
  const got = await getMetricValues(getter, {
    version: preferred.version,
    namespace: q.namespace,
    resource: 'pods',
    name: '*',
    subresource: q.metricName,
    params: { labelSelector: q.selector, metricLabelSelector: q.metricSelector },
  });
  if (!got.ok) return fromCustomAPI(got.error);
  if (got.items.length === 0) return { ok: false, error: 'no metrics returned from custom metrics API' };
  const metrics: PodMetricsInfo = new Map();
  for (const m of got.items)
    metrics.set(m.objectName, {
      value: m.value,
      timestamp: m.timestamp,
      windowMs: m.windowMs ?? defaultWindowMs,
    });
  return { ok: true, metrics, timestamp: got.items[0]?.timestamp ?? 0 };
}

export interface ObjectMetricQuery {
  readonly namespace: string;
  readonly metricName: string;
  readonly object: CrossVersionObjectReference;
  readonly metricSelector: string;
  readonly mapper: ResourceMapper;
}

/** schema.FromAPIVersionAndKind's group: none when the apiVersion does not parse. */
function groupOf(apiVersion: string | undefined): string {
  const parts = (apiVersion ?? '').split('/');
  return parts.length === 2 ? (parts[0] ?? '') : '';
}

/** GetObjectMetric: the one value of the described object (of the namespace itself for a Namespace). */
export async function getObjectMetric(
  getter: MetricsAPIGetter,
  q: ObjectMetricQuery,
): Promise<Calculated<{ value: number; timestamp: number }>> {
  const preferred = await preferredCustomMetricsVersion(getter);
  if (!preferred.ok) return fromCustomAPI(preferred.error);
  const group = groupOf(q.object.apiVersion);
  const params = { metricLabelSelector: q.metricSelector };
  let request: MetricRequest;
  if (q.object.kind === 'Namespace' && group === '') {
    // The reference cannot leave the HPA's namespace: its name is not used.
    request = {
      version: preferred.version,
      namespace: q.namespace,
      resource: 'metrics',
      name: q.metricName,
      subresource: '',
      params,
    };
  } else {
    const mapped = q.mapper({ group, kind: q.object.kind });
    if (!mapped.ok) {
      const gk = group === '' ? q.object.kind : `${q.object.kind}.${group}`;
      return fromCustomAPI(`unable to map kind ${gk} to resource: ${mapped.error}`);
    }
    request = {
      version: preferred.version,
      namespace: q.namespace,
      resource: mapped.resource,
      name: q.object.name,
      subresource: q.metricName,
      params,
    };
  }
  const got = await getMetricValues(getter, request);
  if (!got.ok) return fromCustomAPI(got.error);
  const [only] = got.items;
  if (got.items.length !== 1 || only === undefined)
    return fromCustomAPI(
      `the custom metrics API server returned ${String(got.items.length)} results when we asked for exactly one`,
    );
  return { ok: true, value: only.value, timestamp: only.timestamp };
}
