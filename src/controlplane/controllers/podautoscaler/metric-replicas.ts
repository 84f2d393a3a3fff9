// One metric's proposal of a replica count (computeReplicasForMetric and the computeStatusFor…
// functions of pkg/controller/podautoscaler/horizontal.go): Resource and ContainerResource metrics
// from the resource metrics API through the replica calculator; Pods, Object and External metrics
// from the custom and external metrics APIs (custom-metric-status.ts). Each failure carries the
// ScalingActive condition and the Warning event kube gives, and the error wrapped as kube wraps it.
import type {
  MetricSpec,
  MetricTarget,
  MetricValueStatus,
  MetricStatus,
} from '../../../api/autoscaling/v2/types.js';
import { externalMetricProposal, objectMetricProposal, podsMetricProposal } from './custom-metric-status.js';
import { milliOf, milliQuantity, unable, type MetricContext, type Proposal } from './metric-context.js';
import { rawResourceReplicas, resourceReplicas } from './replica-calculator.js';
import { resourceMetric } from './resource-metrics.js';

export type { MetricContext, Proposal } from './metric-context.js';

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

/** computeReplicasForMetric. */
export async function computeReplicasForMetric(ctx: MetricContext, spec: MetricSpec): Promise<Proposal> {
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
      const p = await podsMetricProposal(ctx, spec.pods);
      return p.ok ? p : { ...p, error: `failed to get pods metric value: ${p.error}` };
    }
    case 'Object': {
      const p = await objectMetricProposal(ctx, spec.object);
      return p.ok ? p : { ...p, error: `failed to get object metric value: ${p.error}` };
    }
    case 'External': {
      const p = await externalMetricProposal(ctx, spec.external);
      const name = spec.external?.metric.name ?? '';
      return p.ok ? p : { ...p, error: `failed to get ${name} external metric value: ${p.error}` };
    }
    default: {
      const error = `unknown metric source type ${JSON.stringify(spec.type)}`;
      return { ok: false, condition: unable(ctx, 'InvalidMetricSourceType', error), error };
    }
  }
}
