// One pass of the HPA controller over one HorizontalPodAutoscaler (reconcileAutoscaler and
// computeReplicasForMetrics in pkg/controller/podautoscaler/horizontal.go): read the target's
// scale, keep it within min and max or follow the metrics (the largest proposal wins; a scale-down
// waits while any metric fails), normalize through the stabilization windows and the behavior,
// write the scale, then the status with kube's conditions and events.
import { isDeepStrictEqual } from 'node:util';
import type { Scale } from '../../../api/autoscaling/v1/scale.js';
import type {
  HorizontalPodAutoscaler,
  HorizontalPodAutoscalerStatus,
  MetricStatus,
} from '../../../api/autoscaling/v2/types.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { parseSelector, type Selector } from '../../../machinery/labels/index.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import { copyOf } from '../simulation/api-client.js';
import { rfc3339 } from '../simulation/clock.js';
import { setCondition, type ConditionChange } from './conditions.js';
import { kindMapper } from './kind-mapper.js';
import { computeReplicasForMetric, type MetricContext } from './metric-replicas.js';
import type { MetricsClient } from './metrics-client.js';
import {
  normalizeDesiredReplicas,
  normalizeDesiredReplicasWithBehaviors,
  type ScalingHistory,
} from './normalize.js';
import type { CalculatorSettings } from './replica-calculator.js';
import { getScale, resolveScaleTarget, updateScale } from './scale-targets.js';

export interface ReconcileDeps {
  readonly groups: readonly APIGroupInfo[];
  /** The pods of a namespace. */
  readonly pods: (namespace: string) => readonly Pod[];
  readonly metrics: MetricsClient;
  readonly settings: CalculatorSettings;
  readonly history: ScalingHistory;
  readonly downscaleWindowMs: number;
  readonly now: number;
  readonly signal: AbortSignal;
  event(type: 'Normal' | 'Warning', reason: string, message: string): void;
  /** Records the HPA's selector; the other HPAs whose selectors also match any of these pods. */
  othersSelecting(selector: Selector, pods: readonly Pod[]): string[];
  writeStatus(hpa: HorizontalPodAutoscaler): Promise<void>;
}

interface Pass {
  readonly hpa: HorizontalPodAutoscaler;
  readonly status: HorizontalPodAutoscalerStatus;
  readonly deps: ReconcileDeps;
}

const set = (p: Pass, change: ConditionChange): void => {
  setCondition(p.status, change, rfc3339(p.deps.now));
};

/** setStatus: the status made anew from the counts, the metrics and the conditions. */
function setStatus(
  p: Pass,
  s: { current: number; desired: number; metrics: MetricStatus[] | undefined; rescaled: boolean },
): void {
  const old = p.status;
  const lastScaleTime = s.rescaled ? rfc3339(p.deps.now) : old.lastScaleTime;
  // Go's member order: lastScaleTime, currentReplicas, desiredReplicas, currentMetrics, conditions.
  const next: HorizontalPodAutoscalerStatus = {
    ...(lastScaleTime === undefined ? {} : { lastScaleTime }),
    ...(s.current === 0 ? {} : { currentReplicas: s.current }),
    desiredReplicas: s.desired,
    ...(s.metrics === undefined ? {} : { currentMetrics: s.metrics }),
    ...(old.conditions === undefined ? {} : { conditions: old.conditions }),
  };
  for (const key of Object.keys(old) as (keyof HorizontalPodAutoscalerStatus)[])
    Reflect.deleteProperty(old, key);
  Object.assign(old, next);
}

async function writeIfChanged(p: Pass, original: HorizontalPodAutoscalerStatus): Promise<void> {
  if (isDeepStrictEqual(original, p.status)) return;
  try {
    await p.deps.writeStatus(p.hpa);
  } catch (err) {
    p.deps.event('Warning', 'FailedUpdateStatus', err instanceof Error ? err.message : String(err));
    throw err;
  }
}

/** validateAndParseSelector. */
function podSelector(p: Pass, scale: Scale): { selector: string; pods: readonly Pod[] } | undefined {
  const text = scale.status?.selector ?? '';
  const invalid = (message: string): void => {
    set(p, { type: 'ScalingActive', status: 'False', reason: 'InvalidSelector', message });
  };
  if (text === '') {
    p.deps.event('Warning', 'SelectorRequired', 'selector is required');
    invalid("the HPA target's scale is missing a selector");
    return undefined;
  }
  const parsed = parseSelector(text);
  if (!parsed.ok) {
    const message = `couldn't convert selector into a corresponding internal selector object: ${parsed.message}`;
    p.deps.event('Warning', 'InvalidSelector', message);
    invalid(message);
    return undefined;
  }
  const namespace = p.hpa.metadata?.namespace ?? '';
  const pods = p.deps.pods(namespace).filter((pod) => parsed.selector.matches(pod.metadata?.labels ?? {}));
  const others = p.deps.othersSelecting(parsed.selector, pods);
  if (others.length > 1) {
    const message = `pods by selector ${text} are controlled by multiple HPAs: [${others.join(' ')}]`;
    p.deps.event('Warning', 'AmbiguousSelector', message);
    set(p, { type: 'ScalingActive', status: 'False', reason: 'AmbiguousSelector', message });
    return undefined;
  }
  return { selector: parsed.selector.toString(), pods };
}

interface MetricsOutcome {
  readonly replicas: number;
  readonly metric: string;
  readonly statuses: MetricStatus[] | undefined;
  readonly error?: string;
}

/** computeReplicasForMetrics: -1 when nothing can be done. */
async function replicasForMetrics(p: Pass, scale: Scale): Promise<MetricsOutcome> {
  const target = podSelector(p, scale);
  if (target === undefined)
    return { replicas: -1, metric: '', statuses: undefined, error: 'invalid selector' };
  const specs = p.hpa.spec?.metrics ?? [];
  const specReplicas = scale.spec?.replicas ?? 0;
  const statuses: MetricStatus[] = specs.map(() => ({ type: '' }));
  const ctx: MetricContext = {
    hpa: p.hpa,
    ...target,
    specReplicas,
    statusReplicas: scale.status?.replicas ?? 0,
    metrics: p.deps.metrics,
    mapper: kindMapper(p.deps.groups),
    now: p.deps.now,
    settings: p.deps.settings,
    warn: (reason: string, message: string) => {
      p.deps.event('Warning', reason, message);
    },
  };
  let replicas = 0;
  let metric = '';
  let invalid = 0;
  let first: { error: string; condition: ConditionChange } | undefined;
  for (const [i, spec] of specs.entries()) {
    const proposal = await computeReplicasForMetric(ctx, spec);
    if (!proposal.ok) {
      first ??= proposal;
      invalid++;
      continue;
    }
    statuses[i] = proposal.status;
    if (replicas === 0 || proposal.replicas > replicas) {
      replicas = proposal.replicas;
      metric = proposal.metric;
    }
  }
  const error =
    first === undefined
      ? undefined
      : `invalid metrics (${String(invalid)} invalid out of ${String(specs.length)}), first error is: ${first.error}`;
  if (first !== undefined && (invalid >= specs.length || replicas < specReplicas)) {
    set(p, first.condition);
    return { replicas: -1, metric: '', statuses, ...(error === undefined ? {} : { error }) };
  }
  set(p, {
    type: 'ScalingActive',
    status: 'True',
    reason: 'ValidMetricFound',
    message: `the HPA was able to successfully calculate a replica count from ${metric}`,
  });
  return { replicas, metric, statuses, ...(error === undefined ? {} : { error }) };
}

/** The scale the HPA is about: decided, or undefined after a failure already recorded. */
async function readScale(
  p: Pass,
): Promise<{ scale: Scale; write: (s: Scale) => Promise<void> } | { failed: string }> {
  const ref = p.hpa.spec?.scaleTargetRef ?? { kind: '', name: '' };
  const resolved = resolveScaleTarget(p.deps.groups, ref);
  let error: string;
  if (resolved.ok) {
    try {
      const at = { namespace: p.hpa.metadata?.namespace ?? '', name: ref.name, signal: p.deps.signal };
      const scale = await getScale(resolved.target, at);
      return { scale, write: (s) => updateScale(resolved.target, s, p.deps.signal) };
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
  } else error = resolved.error;
  p.deps.event('Warning', 'FailedGetScale', error);
  set(p, {
    type: 'AbleToScale',
    status: 'False',
    reason: 'FailedGetScale',
    message: `the HPA controller was unable to get the target's current scale: ${error}`,
  });
  return { failed: error };
}

export async function reconcileAutoscaler(
  shared: HorizontalPodAutoscaler,
  deps: ReconcileDeps,
): Promise<void> {
  const hpa = copyOf(shared);
  const status = (hpa.status ??= { desiredReplicas: 0 });
  const original = copyOf(status);
  const p: Pass = { hpa, status, deps };
  const read = await readScale(p);
  if ('failed' in read) {
    await writeIfChanged(p, original);
    return;
  }
  const { scale } = read;
  set(p, {
    type: 'AbleToScale',
    status: 'True',
    reason: 'SucceededGetScale',
    message: "the HPA controller was able to get the target's current scale",
  });
  const current = scale.spec?.replicas ?? 0;
  deps.history.recordInitial(current, deps.now);
  const min = hpa.spec?.minReplicas ?? 1;
  const max = hpa.spec?.maxReplicas ?? 0;
  let desired = 0;
  let reason = '';
  let rescale = true;
  let statuses: MetricStatus[] | undefined;
  if (current === 0 && min !== 0) {
    rescale = false;
    const message = 'scaling is disabled since the replica count of the target is zero';
    set(p, { type: 'ScalingActive', status: 'False', reason: 'ScalingDisabled', message });
  } else if (current > max) {
    reason = 'Current number of replicas above Spec.MaxReplicas';
    desired = max;
  } else if (current < min) {
    reason = 'Current number of replicas below Spec.MinReplicas';
    desired = min;
  } else {
    const outcome = await replicasForMetrics(p, scale);
    statuses = outcome.statuses;
    if (outcome.replicas === -1) {
      setStatus(p, { current, desired: status.desiredReplicas, metrics: statuses, rescaled: false });
      await writeIfChanged(p, original);
      deps.event('Warning', 'FailedComputeMetricsReplicas', outcome.error ?? '');
      return;
    }
    desired = outcome.replicas;
    if (desired > current) reason = `${outcome.metric} above target`;
    if (desired < current) reason = 'All metrics below target';
    const input = {
      currentReplicas: current,
      desiredReplicas: desired,
      minReplicas: min,
      maxReplicas: max,
      now: deps.now,
    };
    const behavior = hpa.spec?.behavior;
    const normalized =
      behavior === undefined
        ? normalizeDesiredReplicas(deps.history, { ...input, downscaleWindowMs: deps.downscaleWindowMs })
        : normalizeDesiredReplicasWithBehaviors(deps.history, {
            ...input,
            behavior,
            downscaleWindowMs: deps.downscaleWindowMs,
          });
    for (const c of normalized.conditions) set(p, c);
    desired = normalized.replicas;
    rescale = desired !== current;
  }
  if (rescale) {
    try {
      await read.write({ ...scale, spec: { ...scale.spec, replicas: desired } });
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      deps.event(
        'Warning',
        'FailedRescale',
        `New size: ${String(desired)}; reason: ${reason}; error: ${error}`,
      );
      const message = `the HPA controller was unable to update the target scale: ${error}`;
      set(p, { type: 'AbleToScale', status: 'False', reason: 'FailedUpdateScale', message });
      setStatus(p, { current, desired: status.desiredReplicas, metrics: statuses, rescaled: false });
      await writeIfChanged(p, original);
      return;
    }
    const message = `the HPA controller was able to update the target scale to ${String(desired)}`;
    set(p, { type: 'AbleToScale', status: 'True', reason: 'SucceededRescale', message });
    deps.event('Normal', 'SuccessfulRescale', `New size: ${String(desired)}; reason: ${reason}`);
    if (hpa.spec?.behavior !== undefined)
      deps.history.storeScaleEvent(hpa.spec.behavior, { from: current, to: desired, now: deps.now });
  } else desired = current;
  setStatus(p, { current, desired, metrics: statuses, rescaled: rescale });
  await writeIfChanged(p, original);
}
