// What computing one metric's proposal needs (the arguments of horizontal.go's computeStatusFor…
// functions), what it yields, and the helpers they share: kube's condition for a count it could
// not compute, and quantities in milli-units.
import type {
  HorizontalPodAutoscaler,
  MetricIdentifier,
  MetricStatus,
} from '../../../api/autoscaling/v2/types.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { milliValue, parseQuantity, quantityString } from '../../../machinery/quantity/quantity.js';
import type { ConditionChange } from './conditions.js';
import type { ResourceMapper } from './custom-metrics.js';
import type { MetricsClient } from './metrics-client.js';
import type { CalculatorSettings } from './replica-calculator.js';

export interface MetricContext {
  readonly hpa: HorizontalPodAutoscaler;
  /** The pods of the HPA's namespace that the target's selector matches. */
  readonly pods: readonly Pod[];
  readonly selector: string;
  /** The target's scale: spec.replicas and status.replicas. */
  readonly specReplicas: number;
  readonly statusReplicas: number;
  readonly metrics: MetricsClient;
  /** Maps a described object's kind to its resource. */
  readonly mapper: ResourceMapper;
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

/** A quantity's MilliValue; 0 for none. */
export const milliOf = (q: string | undefined): number => {
  const parsed = q === undefined ? undefined : parseQuantity(q);
  return parsed?.ok === true ? Number(milliValue(parsed.quantity)) : 0;
};

/** getUnableComputeReplicaCountCondition: the event now, the condition for the caller. */
export function unable(ctx: MetricContext, reason: string, error: string): ConditionChange {
  ctx.warn(reason, error);
  return {
    type: 'ScalingActive',
    status: 'False',
    reason,
    message: `the HPA was unable to compute the replica count: ${error}`,
  };
}

/** A failed proposal: kube's event and condition for `reason`, and the error the caller wraps. */
export const failed = (ctx: MetricContext, reason: string, error: string): Proposal => ({
  ok: false,
  error,
  condition: unable(ctx, reason, error),
});

/** The status's copy of a spec's metric identifier (its selector only when set). */
export const identifier = (m: MetricIdentifier | undefined): MetricIdentifier => ({
  name: m?.name ?? '',
  ...(m?.selector === undefined ? {} : { selector: m.selector }),
});
