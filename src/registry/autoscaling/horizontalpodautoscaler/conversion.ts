// autoscaling/v1 HorizontalPodAutoscalers over the autoscaling/v2 storage
// (pkg/apis/autoscaling/v1/conversion.go): targetCPUUtilizationPercentage is the first Resource cpu
// metric with a utilization target; every other metric, the current metrics, the behavior and the
// conditions travel in annotations so that a v1 read-modify-write keeps them.
import type {
  HorizontalPodAutoscalerV1,
  HorizontalPodAutoscalerSpecV1,
  HorizontalPodAutoscalerStatusV1,
} from '../../../api/autoscaling/v1/horizontal-pod-autoscaler.js';
import type {
  HorizontalPodAutoscaler,
  HorizontalPodAutoscalerBehavior,
  HorizontalPodAutoscalerCondition,
  HorizontalPodAutoscalerSpec,
  HorizontalPodAutoscalerStatus,
  MetricSpec,
  MetricStatus,
} from '../../../api/autoscaling/v2/types.js';
import type { ObjectMeta } from '../../../api/meta.js';
import type { VersionConversion } from '../../generic/converting-view.js';
import { fitsBehavior, fitsConditions, fitsMetricSpecs, fitsMetricStatuses } from './annotation-shapes.js';
import {
  defined,
  metricSpecFromV1,
  metricSpecToV1,
  metricStatusFromV1,
  metricStatusToV1,
  type MetricSpecV1,
  type MetricStatusV1,
} from './v1-metrics.js';

export const metricSpecsAnnotation = 'autoscaling.alpha.kubernetes.io/metrics';
export const metricStatusesAnnotation = 'autoscaling.alpha.kubernetes.io/current-metrics';
export const behaviorSpecsAnnotation = 'autoscaling.alpha.kubernetes.io/behavior';
export const conditionsAnnotation = 'autoscaling.alpha.kubernetes.io/conditions';
const roundTripAnnotations = [
  metricSpecsAnnotation,
  metricStatusesAnnotation,
  behaviorSpecsAnnotation,
  conditionsAnnotation,
];

/** autoscaling.DefaultCPUUtilization. */
export const defaultCPUUtilization = 80;

export const cpuUtilizationMetric = (utilization: number): MetricSpec => ({
  type: 'Resource',
  resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: utilization } },
});

const isCPUUtilizationTarget = (m: MetricSpec): boolean =>
  m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource.target.averageUtilization !== undefined;

function specToV1(spec: HorizontalPodAutoscalerSpec | undefined): HorizontalPodAutoscalerSpecV1 | undefined {
  if (spec === undefined) return undefined;
  const cpu = (spec.metrics ?? []).find((m) => m.type === 'Resource' && m.resource?.name === 'cpu');
  return defined({
    scaleTargetRef: spec.scaleTargetRef,
    minReplicas: spec.minReplicas,
    maxReplicas: spec.maxReplicas,
    targetCPUUtilizationPercentage: cpu?.resource?.target.averageUtilization,
  });
}

function statusToV1(
  status: HorizontalPodAutoscalerStatus | undefined,
): HorizontalPodAutoscalerStatusV1 | undefined {
  if (status === undefined) return undefined;
  let cpu: number | undefined;
  for (const m of status.currentMetrics ?? []) {
    if (
      m.type === 'Resource' &&
      m.resource?.name === 'cpu' &&
      m.resource.current.averageUtilization !== undefined
    )
      cpu = m.resource.current.averageUtilization;
  }
  return defined({
    observedGeneration: status.observedGeneration,
    lastScaleTime: status.lastScaleTime,
    currentReplicas: status.currentReplicas ?? 0,
    desiredReplicas: status.desiredReplicas,
    currentCPUUtilizationPercentage: cpu,
  });
}

/** The annotations v1 adds for what its fields cannot hold. */
function roundTripAnnotationsOf(hpa: HorizontalPodAutoscaler): Record<string, string> {
  const out: Record<string, string> = {};
  const others = (hpa.spec?.metrics ?? []).filter((m) => !isCPUUtilizationTarget(m));
  if (others.length > 0) out[metricSpecsAnnotation] = JSON.stringify(others.map(metricSpecToV1));
  const current = hpa.status?.currentMetrics ?? [];
  if (current.length > 0) out[metricStatusesAnnotation] = JSON.stringify(current.map(metricStatusToV1));
  const conditions = hpa.status?.conditions ?? [];
  if (conditions.length > 0) out[conditionsAnnotation] = JSON.stringify(conditions);
  if (hpa.spec?.behavior !== undefined) out[behaviorSpecsAnnotation] = JSON.stringify(hpa.spec.behavior);
  return out;
}

function withoutRoundTrip(meta: ObjectMeta | undefined): ObjectMeta | undefined {
  const annotations = meta?.annotations;
  if (meta === undefined || annotations === undefined) return meta;
  if (!roundTripAnnotations.some((k) => k in annotations)) return meta;
  const kept = Object.fromEntries(
    Object.entries(annotations).filter(([k]) => !roundTripAnnotations.includes(k)),
  );
  const { annotations: _dropped, ...rest } = meta;
  return Object.keys(kept).length === 0 ? rest : { ...rest, annotations: kept };
}

/**
 * A JSON annotation's value when it decodes into the shape kube's struct has; undefined when absent
 * or malformed (kube moves only well-formed data from annotations to fields).
 */
function parsed<T>(
  annotations: Readonly<Record<string, string>> | undefined,
  key: string,
  fits: (v: unknown) => boolean,
): T | undefined {
  const text = annotations?.[key];
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return fits(value) ? (value as T) : undefined;
  } catch {
    return undefined;
  }
}

const annotatedMetricSpecs = (annotations: Readonly<Record<string, string>> | undefined): MetricSpecV1[] =>
  parsed<MetricSpecV1[]>(annotations, metricSpecsAnnotation, fitsMetricSpecs) ?? [];

/**
 * SetDefaults_HorizontalPodAutoscaler of autoscaling/v1 (pkg/apis/autoscaling/v1/defaults.go): one
 * replica at least. And the 80% CPU target the conversion gives an autoscaler that names no metric:
 * kube's field manager reads a v1 body back through the conversion, so the request owns that target.
 */
export function setHorizontalPodAutoscalerV1Defaults(hpa: HorizontalPodAutoscalerV1): void {
  const spec = (hpa.spec ??= { scaleTargetRef: { kind: '', name: '' }, maxReplicas: 0 });
  spec.minReplicas ??= 1;
  if (
    spec.targetCPUUtilizationPercentage === undefined &&
    annotatedMetricSpecs(hpa.metadata?.annotations).length === 0
  )
    spec.targetCPUUtilizationPercentage = defaultCPUUtilization;
}

function specFromV1(
  spec: HorizontalPodAutoscalerSpecV1 | undefined,
  annotations: Readonly<Record<string, string>> | undefined,
): HorizontalPodAutoscalerSpec | undefined {
  if (spec === undefined) return undefined;
  const metrics = annotatedMetricSpecs(annotations).map(metricSpecFromV1);
  if (spec.targetCPUUtilizationPercentage !== undefined)
    metrics.push(cpuUtilizationMetric(spec.targetCPUUtilizationPercentage));
  // v1 once defaulted in the controller; the conversion makes it explicit.
  if (metrics.length === 0) metrics.push(cpuUtilizationMetric(defaultCPUUtilization));
  const behavior = parsed<HorizontalPodAutoscalerBehavior>(
    annotations,
    behaviorSpecsAnnotation,
    fitsBehavior,
  );
  return defined({
    scaleTargetRef: spec.scaleTargetRef,
    minReplicas: spec.minReplicas,
    maxReplicas: spec.maxReplicas,
    metrics,
    // Only the struct's fields survive decoding.
    behavior:
      behavior &&
      defined({ scaleUp: behavior.scaleUp ?? undefined, scaleDown: behavior.scaleDown ?? undefined }),
  });
}

function statusFromV1(
  status: HorizontalPodAutoscalerStatusV1 | undefined,
  annotations: Readonly<Record<string, string>> | undefined,
): HorizontalPodAutoscalerStatus | undefined {
  if (status === undefined) return undefined;
  const annotated = parsed<MetricStatusV1[]>(annotations, metricStatusesAnnotation, fitsMetricStatuses);
  const cpu = status.currentCPUUtilizationPercentage;
  const currentMetrics: MetricStatus[] | undefined =
    annotated !== undefined
      ? annotated.map(metricStatusFromV1)
      : cpu === undefined
        ? undefined
        : [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: cpu } } }];
  return defined({
    observedGeneration: status.observedGeneration,
    lastScaleTime: status.lastScaleTime,
    currentReplicas: status.currentReplicas,
    desiredReplicas: status.desiredReplicas,
    currentMetrics,
    conditions: parsed<HorizontalPodAutoscalerCondition[]>(annotations, conditionsAnnotation, fitsConditions),
  });
}

export const horizontalPodAutoscalerV1Conversion: VersionConversion<
  HorizontalPodAutoscalerV1,
  HorizontalPodAutoscaler
> = {
  apiVersion: 'autoscaling/v1',
  kind: 'HorizontalPodAutoscaler',
  defaultDecoded: setHorizontalPodAutoscalerV1Defaults,
  fromInner: (hpa) => {
    const extra = roundTripAnnotationsOf(hpa);
    const meta = withoutRoundTrip(hpa.metadata);
    const metadata: ObjectMeta | undefined =
      Object.keys(extra).length === 0 ? meta : { ...meta, annotations: { ...meta?.annotations, ...extra } };
    return {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      ...defined({ metadata, spec: specToV1(hpa.spec), status: statusToV1(hpa.status) }),
    };
  },
  toInner: (hpa) => {
    const annotations = hpa.metadata?.annotations;
    return {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      ...defined({
        metadata: withoutRoundTrip(hpa.metadata),
        spec: specFromV1(hpa.spec, annotations),
        status: statusFromV1(hpa.status, annotations),
      }),
    };
  },
};
