// How a metric's recommendation becomes the replicas the HPA sets (normalizeDesiredReplicas and
// normalizeDesiredReplicasWithBehaviors in pkg/controller/podautoscaler/horizontal.go): the
// recommendations of the stabilization windows, the scale events the behavior's policies count,
// and the min/max and rate limits with the ScalingLimited reasons kube gives.
import type { HPAScalingRules, HorizontalPodAutoscalerBehavior } from '../../../api/autoscaling/v2/types.js';
import type { ConditionChange } from './conditions.js';

interface Recommendation {
  readonly replicas: number;
  readonly at: number;
}

interface ScaleEvent {
  readonly change: number;
  readonly at: number;
  outdated: boolean;
}

/** One HPA's past: its unstabilized recommendations and its scale-ups and scale-downs. */
export class ScalingHistory {
  recommendations: Recommendation[] = [];
  readonly up: ScaleEvent[] = [];
  readonly down: ScaleEvent[] = [];

  /** recordInitialRecommendation: the current size, the first time the HPA is seen. */
  recordInitial(replicas: number, now: number): void {
    if (this.recommendations.length === 0) this.recommendations = [{ replicas, at: now }];
  }

  /** Keeps a recommendation, in the place of one older than `cutoff` if there is one. */
  record(replicas: number, opts: { now: number; replace: number }): void {
    const next = { replicas, at: opts.now };
    if (opts.replace >= 0) this.recommendations[opts.replace] = next;
    else this.recommendations.push(next);
  }

  /** storeScaleEvent: only with a behavior, whose longest policy period decides what is outdated. */
  storeScaleEvent(
    behavior: HorizontalPodAutoscalerBehavior,
    change: { from: number; to: number; now: number },
  ): void {
    const up = change.to > change.from;
    const events = up ? this.up : this.down;
    const cutoff = change.now - longestPolicyPeriod(up ? behavior.scaleUp : behavior.scaleDown) * 1000;
    for (const e of events) if (e.at < cutoff) e.outdated = true;
    const event = { change: Math.abs(change.to - change.from), at: change.now, outdated: false };
    const reuse = events.findLastIndex((e) => e.outdated);
    if (reuse >= 0) events[reuse] = event;
    else events.push(event);
  }
}

const longestPolicyPeriod = (rules: HPAScalingRules | undefined): number =>
  Math.max(0, ...(rules?.policies ?? []).map((p) => p.periodSeconds));

export interface NormalizeInput {
  readonly currentReplicas: number;
  readonly desiredReplicas: number;
  readonly minReplicas: number;
  readonly maxReplicas: number;
  readonly now: number;
}

export interface Normalized {
  readonly replicas: number;
  readonly conditions: readonly ConditionChange[];
}

const scaleUpLimit = (current: number): number => Math.trunc(Math.max(2 * current, 4));

const limited = (reason: string, message: string, limiting: boolean): ConditionChange => ({
  type: 'ScalingLimited',
  status: limiting ? 'True' : 'False',
  reason,
  message,
});

const readyForNewScale: ConditionChange = {
  type: 'AbleToScale',
  status: 'True',
  reason: 'ReadyForNewScale',
  message: 'recommended size matches current size',
};

const withinRange = ['DesiredWithinRange', 'the desired count is within the acceptable range'] as const;

/** Without a behavior: the highest recommendation of the downscale window, then min, max and 2x/4. */
export function normalizeDesiredReplicas(
  history: ScalingHistory,
  input: NormalizeInput & { readonly downscaleWindowMs: number },
): Normalized {
  const cutoff = input.now - input.downscaleWindowMs;
  let stabilized = input.desiredReplicas;
  let replace = -1;
  history.recommendations.forEach((r, i) => {
    if (r.at < cutoff) replace = i;
    else if (r.replicas > stabilized) stabilized = r.replicas;
  });
  history.record(input.desiredReplicas, { now: input.now, replace });
  const able: ConditionChange =
    stabilized !== input.desiredReplicas
      ? {
          type: 'AbleToScale',
          status: 'True',
          reason: 'ScaleDownStabilized',
          message:
            'recent recommendations were higher than current one, applying the highest recent recommendation',
        }
      : readyForNewScale;
  const upLimit = scaleUpLimit(input.currentReplicas);
  let max = input.maxReplicas;
  let limit: readonly [string, string] = [
    'TooManyReplicas',
    'the desired replica count is more than the maximum replica count',
  ];
  if (input.maxReplicas > upLimit) {
    max = upLimit;
    limit = ['ScaleUpLimit', 'the desired replica count is increasing faster than the maximum scale rate'];
  }
  let replicas = stabilized;
  if (stabilized < input.minReplicas) {
    replicas = input.minReplicas;
    limit = ['TooFewReplicas', 'the desired replica count is less than the minimum replica count'];
  } else if (stabilized > max) replicas = max;
  else limit = withinRange;
  return { replicas, conditions: [able, limited(limit[0], limit[1], replicas !== stabilized)] };
}

/** stabilizeRecommendationWithBehaviors: the current size kept between the windows' extremes. */
function stabilizeWithBehaviors(
  history: ScalingHistory,
  input: NormalizeInput & { upWindowS: number; downWindowS: number },
): { replicas: number; condition: ConditionChange } {
  const upCutoff = input.now - input.upWindowS * 1000;
  const downCutoff = input.now - input.downWindowS * 1000;
  let up = input.desiredReplicas;
  let down = input.desiredReplicas;
  let replace = -1;
  history.recommendations.forEach((r, i) => {
    if (r.at > upCutoff) up = Math.min(r.replicas, up);
    if (r.at > downCutoff) down = Math.max(r.replicas, down);
    if (r.at < upCutoff && r.at < downCutoff) replace = i;
  });
  const replicas = Math.min(Math.max(input.currentReplicas, up), down);
  history.record(input.desiredReplicas, { now: input.now, replace });
  if (replicas === input.desiredReplicas) return { replicas, condition: readyForNewScale };
  const upward = input.desiredReplicas >= input.currentReplicas;
  return {
    replicas,
    condition: {
      type: 'AbleToScale',
      status: 'True',
      reason: upward ? 'ScaleUpStabilized' : 'ScaleDownStabilized',
      message: upward
        ? 'recent recommendations were lower than current one, applying the lowest recent recommendation'
        : 'recent recommendations were higher than current one, applying the highest recent recommendation',
    },
  };
}

const changedWithin = (events: readonly ScaleEvent[], cutoff: number): number =>
  events.filter((e) => e.at > cutoff).reduce((sum, e) => sum + e.change, 0);

/** calculateScaleUpLimitWithScalingRules and calculateScaleDownLimitWithBehaviors. */
function rateLimit(
  history: ScalingHistory,
  opts: { current: number; rules: HPAScalingRules; up: boolean; now: number },
): number {
  const { current, rules, up } = opts;
  if (rules.selectPolicy === 'Disabled') return current;
  // Min on a scale-up and Max on a scale-down pick the smaller change.
  const pickLargest = (rules.selectPolicy === 'Min') !== up;
  let result = pickLargest ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  for (const p of rules.policies ?? []) {
    const cutoff = opts.now - p.periodSeconds * 1000;
    const start = current - changedWithin(history.up, cutoff) + changedWithin(history.down, cutoff);
    const proposed = up
      ? p.type === 'Pods'
        ? start + p.value
        : Math.ceil(start * (1 + p.value / 100))
      : p.type === 'Pods'
        ? start - p.value
        : Math.trunc(start * (1 - p.value / 100));
    result = pickLargest ? Math.max(result, proposed) : Math.min(result, proposed);
  }
  return result;
}

/** convertDesiredReplicasWithBehaviorRate: min, max and the policies' rate. */
function convertWithBehaviorRate(
  history: ScalingHistory,
  input: NormalizeInput & { behavior: HorizontalPodAutoscalerBehavior },
): { replicas: number; reason: string; message: string } {
  const current = input.currentReplicas;
  const common = { current, now: input.now };
  if (input.desiredReplicas > current) {
    const limit = Math.max(
      current,
      rateLimit(history, { ...common, rules: input.behavior.scaleUp ?? {}, up: true }),
    );
    const [max, reason, message] =
      input.maxReplicas > limit
        ? [
            limit,
            'ScaleUpLimit',
            'the desired replica count is increasing faster than the maximum scale rate',
          ]
        : [
            input.maxReplicas,
            'TooManyReplicas',
            'the desired replica count is more than the maximum replica count',
          ];
    if (input.desiredReplicas > max) return { replicas: max, reason, message };
  } else if (input.desiredReplicas < current) {
    const limit = Math.min(
      current,
      rateLimit(history, { ...common, rules: input.behavior.scaleDown ?? {}, up: false }),
    );
    const [min, reason, message] =
      input.minReplicas < limit
        ? [
            limit,
            'ScaleDownLimit',
            'the desired replica count is decreasing faster than the maximum scale rate',
          ]
        : [
            input.minReplicas,
            'TooFewReplicas',
            'the desired replica count is less than the minimum replica count',
          ];
    if (input.desiredReplicas < min) return { replicas: min, reason, message };
  }
  return { replicas: input.desiredReplicas, reason: withinRange[0], message: withinRange[1] };
}

/** With a behavior: its stabilization windows (the scale-down one defaulted), then its policies. */
export function normalizeDesiredReplicasWithBehaviors(
  history: ScalingHistory,
  input: NormalizeInput & {
    readonly behavior: HorizontalPodAutoscalerBehavior;
    readonly downscaleWindowMs: number;
  },
): Normalized {
  const stabilized = stabilizeWithBehaviors(history, {
    ...input,
    upWindowS: input.behavior.scaleUp?.stabilizationWindowSeconds ?? 0,
    downWindowS: input.behavior.scaleDown?.stabilizationWindowSeconds ?? input.downscaleWindowMs / 1000,
  });
  const rated = convertWithBehaviorRate(history, { ...input, desiredReplicas: stabilized.replicas });
  return {
    replicas: rated.replicas,
    conditions: [
      stabilized.condition,
      limited(rated.reason, rated.message, rated.replicas !== stabilized.replicas),
    ],
  };
}
