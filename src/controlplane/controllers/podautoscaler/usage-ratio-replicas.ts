// The replica calculator for metrics that are one number for the whole target rather than one per
// pod (GetObjectMetricReplicas, GetObjectPerPodMetricReplicas, GetExternalMetricReplicas,
// GetExternalPerPodMetricReplicas and getUsageRatioReplicaCount in pkg/controller/podautoscaler/
// replica_calculator.go): a Value target scales the ready pods by the usage ratio; an AverageValue
// target divides the usage by the target per pod. Values in milli-units.
import type { Pod } from '../../../api/core/v1/pod.js';
import type { Calculated } from './replica-calculator.js';

const maxInt32 = 2 ** 31 - 1;
const minInt64 = -(2 ** 63);

/** Go's int32(math.Ceil(x)) with kube's cap at MaxInt32. */
const ceilInt32 = (x: number): number => (x > maxInt32 ? maxInt32 : Math.ceil(x));

/** Go's int64(x) as amd64 converts it: out of range, infinite or NaN gives MinInt64. */
const goInt64 = (x: number): number =>
  Number.isFinite(x) && Math.abs(x) < 2 ** 63 ? Math.trunc(x) : minInt64;

/** Tolerances.isWithin with the one tolerance both ways. */
const within = (ratio: number, tolerance: number): boolean =>
  1 - tolerance <= ratio && ratio <= 1 + tolerance;

/** getReadyPodsCount: Running pods whose Ready condition is True. */
function readyPodsCount(pods: readonly Pod[]): Calculated<{ count: number }> {
  if (pods.length === 0)
    return { ok: false, error: 'no pods returned by selector while calculating replica count' };
  const count = pods.filter(
    (p) =>
      p.status?.phase === 'Running' &&
      p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
  ).length;
  return { ok: true, count };
}

export interface ValueInputs {
  /** The target's spec replicas. */
  readonly currentReplicas: number;
  /** The metric's value (the sum of an external metric's values). */
  readonly usage: number;
  readonly target: number;
  /** The pods the target's selector matches. */
  readonly pods: readonly Pod[];
  readonly tolerance: number;
}

/** getUsageRatioReplicaCount: from zero replicas the ratio alone decides, so a target may scale from zero. */
export function valueReplicas(i: ValueInputs): Calculated<{ replicas: number; usage: number }> {
  const ratio = i.usage / i.target;
  if (i.currentReplicas === 0) return { ok: true, replicas: ceilInt32(ratio), usage: i.usage };
  if (within(ratio, i.tolerance)) return { ok: true, replicas: i.currentReplicas, usage: i.usage };
  const ready = readyPodsCount(i.pods);
  if (!ready.ok) return { ok: false, error: `unable to calculate ready pods: ${ready.error}` };
  return { ok: true, replicas: ceilInt32(ratio * ready.count), usage: i.usage };
}

export interface PerPodInputs {
  /** The target's status replicas. */
  readonly statusReplicas: number;
  readonly usage: number;
  readonly targetPerPod: number;
  readonly tolerance: number;
}

/** The AverageValue reading: the usage per current replica, and as many replicas as the usage needs. */
export function perPodReplicas(i: PerPodInputs): { replicas: number; usage: number } {
  const ratio = i.usage / (i.targetPerPod * i.statusReplicas);
  const replicas = within(ratio, i.tolerance) ? i.statusReplicas : ceilInt32(i.usage / i.targetPerPod);
  return { replicas, usage: goInt64(Math.ceil(i.usage / i.statusReplicas)) };
}
