// The proposals of Pods, Object and External metrics (computeStatusForPodsMetric,
// computeStatusForObjectMetric and computeStatusForExternalMetric in pkg/controller/podautoscaler/
// horizontal.go, over the replica calculator's GetMetricReplicas, GetObject[PerPod]MetricReplicas
// and GetExternal[PerPod]MetricReplicas): the status metric written in status.currentMetrics, the
// metric's name in conditions and events, and on failure kube's event, condition and error.
import type {
  ExternalMetricSource,
  ObjectMetricSource,
  PodsMetricSource,
} from '../../../api/autoscaling/v2/types.js';
import { labelSelectorAsSelector } from '../../../machinery/labels/index.js';
import { labelSelectorText } from './label-selector-text.js';
import {
  failed,
  identifier,
  milliOf,
  milliQuantity,
  unable,
  type MetricContext,
  type Proposal,
} from './metric-context.js';
import { rawResourceReplicas, type Calculated } from './replica-calculator.js';
import { perPodReplicas, valueReplicas } from './usage-ratio-replicas.js';

const namespaceOf = (ctx: MetricContext): string => ctx.hpa.metadata?.namespace ?? '';

/** computeStatusForPodsMetric: the average of the pods' values against the target average value. */
export async function podsMetricProposal(
  ctx: MetricContext,
  spec: PodsMetricSource | undefined,
): Promise<Proposal> {
  const name = spec?.metric.name ?? '';
  const metricSelector = labelSelectorAsSelector(spec?.metric.selector);
  if (!metricSelector.ok) return failed(ctx, 'FailedGetPodsMetric', metricSelector.message);
  const fetched = await ctx.metrics.rawMetric({
    namespace: namespaceOf(ctx),
    metricName: name,
    selector: ctx.selector,
    metricSelector: metricSelector.selector.toString(),
  });
  if (!fetched.ok)
    return failed(ctx, 'FailedGetPodsMetric', `unable to get metric ${name}: ${fetched.error}`);
  // calcPlainMetricReplicas without a resource: readiness as for any metric but CPU.
  const r = rawResourceReplicas(
    {
      currentReplicas: ctx.specReplicas,
      pods: ctx.pods,
      metrics: fetched.metrics,
      resource: '',
      container: '',
      now: ctx.now,
      targetUsage: milliOf(spec?.target.averageValue),
    },
    ctx.settings,
  );
  if (!r.ok) return failed(ctx, 'FailedGetPodsMetric', r.error);
  return {
    ok: true,
    replicas: r.replicas,
    metric: `pods metric ${name}`,
    status: {
      type: 'Pods',
      pods: { metric: identifier(spec?.metric), current: { averageValue: milliQuantity(r.usage) } },
    },
  };
}

/** A failure whose condition carries `error` while the caller gets it wrapped. */
function failedWrapped(ctx: MetricContext, o: { reason: string; error: string; wrapped: string }): Proposal {
  return { ok: false, error: o.wrapped, condition: unable(ctx, o.reason, o.error) };
}

/** computeStatusForObjectMetric: a Value target against the object's value, or an AverageValue per pod. */
export async function objectMetricProposal(
  ctx: MetricContext,
  spec: ObjectMetricSource | undefined,
): Promise<Proposal> {
  const reason = 'FailedGetObjectMetric';
  const name = spec?.metric.name ?? '';
  const metricSelector = labelSelectorAsSelector(spec?.metric.selector);
  if (!metricSelector.ok) return failed(ctx, reason, metricSelector.message);
  const target = spec?.target;
  const byValue = target?.type === 'Value' && target.value !== undefined;
  const byAverage = target?.type === 'AverageValue' && target.averageValue !== undefined;
  if (spec === undefined || (!byValue && !byAverage))
    return failed(
      ctx,
      reason,
      'invalid object metric source: neither a value target nor an average value target was set',
    );
  const object = spec.describedObject;
  const namespace = namespaceOf(ctx);
  const fetched = await ctx.metrics.objectMetric({
    namespace,
    metricName: name,
    object,
    metricSelector: metricSelector.selector.toString(),
    mapper: ctx.mapper,
  });
  if (!fetched.ok) {
    // kube's format string puts the error last, after the object's name.
    const error = `unable to get metric ${name}: ${object.kind} on ${namespace} ${object.name}/${fetched.error}`;
    if (byValue) return failed(ctx, reason, error);
    return failedWrapped(ctx, { reason, error, wrapped: `failed to get ${name} object metric: ${error}` });
  }
  if (byValue) {
    const r = valueReplicas({
      currentReplicas: ctx.specReplicas,
      usage: fetched.value,
      target: milliOf(target.value),
      pods: ctx.pods,
      tolerance: ctx.settings.tolerance,
    });
    if (!r.ok) return failed(ctx, reason, r.error);
    return {
      ok: true,
      replicas: r.replicas,
      metric: `${object.kind} metric ${name}`,
      status: {
        type: 'Object',
        object: {
          metric: identifier(spec.metric),
          current: { value: milliQuantity(r.usage) },
          describedObject: object,
        },
      },
    };
  }
  const r = perPodReplicas({
    statusReplicas: ctx.statusReplicas,
    usage: fetched.value,
    targetPerPod: milliOf(target.averageValue),
    tolerance: ctx.settings.tolerance,
  });
  return {
    ok: true,
    replicas: r.replicas,
    // kube names a per-pod object metric as it names an external one, and leaves describedObject empty.
    metric: `external metric ${name}(${labelSelectorText(spec.metric.selector)})`,
    status: {
      type: 'Object',
      object: {
        metric: identifier(spec.metric),
        current: { averageValue: milliQuantity(r.usage) },
        describedObject: { kind: '', name: '' },
      },
    },
  };
}

/** computeStatusForExternalMetric: an AverageValue target per pod, else a Value target. */
export async function externalMetricProposal(
  ctx: MetricContext,
  spec: ExternalMetricSource | undefined,
): Promise<Proposal> {
  const reason = 'FailedGetExternalMetric';
  const name = spec?.metric.name ?? '';
  const target = spec?.target;
  const perPod = target?.averageValue !== undefined;
  if (spec === undefined || (!perPod && target?.value === undefined))
    return failed(
      ctx,
      reason,
      'invalid external metric source: neither a value target nor an average value target was set',
    );
  const namespace = namespaceOf(ctx);
  const metricSelector = labelSelectorAsSelector(spec.metric.selector);
  let sum: Calculated<{ usage: number }>;
  if (!metricSelector.ok) sum = { ok: false, error: metricSelector.message };
  else {
    const fetched = await ctx.metrics.externalMetric({
      namespace,
      metricName: name,
      selector: metricSelector.selector.toString(),
    });
    sum = fetched.ok
      ? { ok: true, usage: fetched.values.reduce((a, b) => a + b, 0) }
      : {
          ok: false,
          error: `unable to get external metric ${namespace}/${name}/${labelSelectorText(spec.metric.selector)}: ${fetched.error}`,
        };
  }
  const metric = `external metric ${name}(${labelSelectorText(spec.metric.selector)})`;
  const identified = identifier(spec.metric);
  if (perPod) {
    if (!sum.ok)
      return failedWrapped(ctx, {
        reason,
        error: sum.error,
        wrapped: `failed to get ${name} external metric: ${sum.error}`,
      });
    const r = perPodReplicas({
      statusReplicas: ctx.statusReplicas,
      usage: sum.usage,
      targetPerPod: milliOf(spec.target.averageValue),
      tolerance: ctx.settings.tolerance,
    });
    const current = { averageValue: milliQuantity(r.usage) };
    return {
      ok: true,
      replicas: r.replicas,
      metric,
      status: { type: 'External', external: { metric: identified, current } },
    };
  }
  const r = sum.ok
    ? valueReplicas({
        currentReplicas: ctx.specReplicas,
        usage: sum.usage,
        target: milliOf(spec.target.value),
        pods: ctx.pods,
        tolerance: ctx.settings.tolerance,
      })
    : sum;
  if (!r.ok)
    return failedWrapped(ctx, {
      reason,
      error: r.error,
      wrapped: `failed to get external metric ${name}: ${r.error}`,
    });
  const current = { value: milliQuantity(r.usage) };
  return {
    ok: true,
    replicas: r.replicas,
    metric,
    status: { type: 'External', external: { metric: identified, current } },
  };
}
