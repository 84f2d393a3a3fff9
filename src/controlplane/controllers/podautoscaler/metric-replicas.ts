// One metric's proposal of a replica count (computeReplicasForMetric and the computeStatusFor…
// functions of pkg/controller/podautoscaler/horizontal.go): Resource and ContainerResource metrics
// from the resource metrics API through the replica calculator; Pods, Object and External metrics
// need the custom and external metrics APIs, which nothing here serves, and fail as kube fails
// without them. Each failure carries the ScalingActive condition and the Warning event kube gives.
import type {
  HorizontalPodAutoscaler,
  MetricSpec,
  MetricStatus,
  MetricTarget,
  MetricValueStatus,
} from '../../../api/autoscaling/v2/types.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { LabelSelector } from '../../../api/meta/v1/label-selector.js';
import { milliValue, parseQuantity, quantityString } from '../../../machinery/quantity/quantity.js';
import type { ConditionChange } from './conditions.js';
import { rawResourceReplicas, resourceReplicas, type CalculatorSettings } from './replica-calculator.js';
import { resourceMetric, type ResourceMetricsSource } from './resource-metrics.js';

export interface MetricContext {
  readonly hpa: HorizontalPodAutoscaler;
  /** The pods of the HPA's namespace that the target's selector matches. */
  readonly pods: readonly Pod[];
  readonly selector: string;
  readonly specReplicas: number;
  readonly metrics: ResourceMetricsSource;
  readonly now: number;
  readonly settings: CalculatorSettings;
  /** A Warning event about the HPA. */
  warn(reason: string, message: string): void;
}

export type Proposal =
  | { readonly ok: true; readonly replicas: number; readonly metric: string; readonly status: MetricStatus }
  | { readonly ok: false; readonly error: string; readonly condition: ConditionChange };

/** resource.NewMilliQuantity(v, DecimalSI).String(). */
export const milliQuantity = (v: number): string =>
  quantityString({ unscaled: BigInt(Math.trunc(v)), exponent: -3, format: 'DecimalSI' });

const milliOf = (q: string | undefined): number => {
  const parsed = q === undefined ? undefined : parseQuantity(q);
  return parsed?.ok === true ? Number(milliValue(parsed.quantity)) : 0;
};

/** getUnableComputeReplicaCountCondition: the event now, the condition for the caller. */
function unable(ctx: MetricContext, reason: string, error: string): ConditionChange {
  ctx.warn(reason, error);
  return {
    type: 'ScalingActive',
    status: 'False',
    reason,
    message: `the HPA was unable to compute the replica count: ${error}`,
  };
}

type Computed =
  { ok: true; replicas: number; metric: string; current: MetricValueStatus } | { ok: false; error: string };

/** computeStatusForResourceMetricGeneric. */
async function resourceProposal(
  ctx: MetricContext,
  spec: { name: string; target: MetricTarget; container: string },
): Promise<Computed> {
  const { name, target, container } = spec;
  if (target.averageValue === undefined && target.averageUtilization === undefined)
    return {
      ok: false,
      error:
        'invalid resource metric source: neither an average utilization target nor an average value (usage) target was set',
    };
  const what = target.averageValue !== undefined ? 'usage' : 'utilization';
  const fail = (inner: string): Computed => ({ ok: false, error: `failed to get ${name} ${what}: ${inner}` });
  const namespace = ctx.hpa.metadata?.namespace ?? '';
  const fetched = await ctx.metrics.podMetrics(namespace, ctx.selector);
  const read = fetched.ok
    ? resourceMetric(fetched.items, { resource: name, container })
    : { ok: false as const, error: `unable to fetch metrics from resource metrics API: ${fetched.error}` };
  if (!read.ok) return fail(`unable to get metrics for resource ${name}: ${read.error}`);
  const inputs = {
    currentReplicas: ctx.specReplicas,
    pods: ctx.pods,
    metrics: read.metrics,
    resource: name,
    container,
    now: ctx.now,
  };
  if (target.averageValue !== undefined) {
    const r = rawResourceReplicas({ ...inputs, targetUsage: milliOf(target.averageValue) }, ctx.settings);
    if (!r.ok) return fail(r.error);
    return {
      ok: true,
      replicas: r.replicas,
      metric: `${name} resource`,
      current: { averageValue: milliQuantity(r.usage) },
    };
  }
  const r = resourceReplicas({ ...inputs, targetUtilization: target.averageUtilization ?? 0 }, ctx.settings);
  if (!r.ok) return fail(r.error);
  return {
    ok: true,
    replicas: r.replicas,
    metric: `${name} ${container === '' ? '' : 'container '}resource utilization (percentage of request)`,
    current: { averageValue: milliQuantity(r.rawUtilization), averageUtilization: r.utilization },
  };
}

/** The custom metrics client's answer when no custom.metrics.k8s.io version is served. */
const noCustomMetrics =
  'unable to fetch metrics from custom metrics API: no known available metric versions found';

/** Go's %+v of a *metav1.LabelSelector, as the external metric errors print it. */
function selectorText(s: LabelSelector | undefined): string {
  if (s === undefined) return 'nil';
  const labels = Object.entries(s.matchLabels ?? {})
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}: ${v},`)
    .join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{},}`;
}

/** computeReplicasForMetric. */
export async function computeReplicasForMetric(ctx: MetricContext, spec: MetricSpec): Promise<Proposal> {
  const namespace = ctx.hpa.metadata?.namespace ?? '';
  switch (spec.type) {
    case 'Resource':
    case 'ContainerResource': {
      const source = spec.type === 'Resource' ? spec.resource : spec.containerResource;
      const container = spec.containerResource?.container ?? '';
      const name = source?.name ?? '';
      const r = await resourceProposal(ctx, { name, target: source?.target ?? { type: '' }, container });
      if (r.ok) {
        const status: MetricStatus =
          spec.type === 'Resource'
            ? { type: 'Resource', resource: { name, current: r.current } }
            : { type: 'ContainerResource', containerResource: { name, current: r.current, container } };
        return { ok: true, replicas: r.replicas, metric: r.metric, status };
      }
      const reason =
        spec.type === 'Resource' ? 'FailedGetResourceMetric' : 'FailedGetContainerResourceMetric';
      const condition = unable(ctx, reason, r.error);
      const outer =
        spec.type === 'Resource' ? `${name} resource metric value` : `${container} container metric value`;
      return { ok: false, condition, error: `failed to get ${outer}: ${r.error}` };
    }
    case 'Pods': {
      const name = spec.pods?.metric.name ?? '';
      const error = `unable to get metric ${name}: ${noCustomMetrics}`;
      return {
        ok: false,
        condition: unable(ctx, 'FailedGetPodsMetric', error),
        error: `failed to get pods metric value: ${error}`,
      };
    }
    case 'Object': {
      const o = spec.object;
      const name = o?.metric.name ?? '';
      // kube's format string puts the error last, after the object's name.
      const error = `unable to get metric ${name}: ${o?.describedObject.kind ?? ''} on ${namespace} ${o?.describedObject.name ?? ''}/${noCustomMetrics}`;
      const wrapped =
        o?.target.type === 'AverageValue' ? `failed to get ${name} object metric: ${error}` : error;
      return {
        ok: false,
        condition: unable(ctx, 'FailedGetObjectMetric', error),
        error: `failed to get object metric value: ${wrapped}`,
      };
    }
    case 'External': {
      const e = spec.external;
      const name = e?.metric.name ?? '';
      const error = `unable to get external metric ${namespace}/${name}/${selectorText(e?.metric.selector)}: unable to fetch metrics from external metrics API: the server could not find the requested resource (get ${name}.external.metrics.k8s.io)`;
      const wrapped =
        e?.target.averageValue !== undefined
          ? `failed to get ${name} external metric: ${error}`
          : `failed to get external metric ${name}: ${error}`;
      return {
        ok: false,
        condition: unable(ctx, 'FailedGetExternalMetric', error),
        error: `failed to get ${name} external metric value: ${wrapped}`,
      };
    }
    default: {
      const error = `unknown metric source type ${JSON.stringify(spec.type)}`;
      return { ok: false, condition: unable(ctx, 'InvalidMetricSourceType', error), error };
    }
  }
}
