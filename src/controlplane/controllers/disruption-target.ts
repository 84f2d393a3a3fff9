// The DisruptionTarget condition a controller gives a pod before it deletes the pod (kube's
// apipod.UpdatePodCondition over the condition), so the pod's owners and the disruption controller
// see why it goes.
import type { Pod } from '../../api/core/v1/pod.js';
import { copyOf } from './simulation/api-client.js';

export interface DisruptionTarget {
  readonly reason: string;
  readonly message: string;
  /** The transition time, unless the condition was True already. */
  readonly now: string;
}

/**
 * A copy of the pod with DisruptionTarget True for the target's reason and message; undefined when
 * the pod already has exactly that condition.
 */
export function withDisruptionTarget(pod: Pod, target: DisruptionTarget): Pod | undefined {
  const { reason, message, now } = target;
  const conditions = pod.status?.conditions ?? [];
  const old = conditions.find((c) => c.type === 'DisruptionTarget');
  if (old?.status === 'True' && old.reason === reason && old.message === message) return undefined;
  const updated = copyOf(pod);
  const status = (updated.status ??= {});
  const lastTransitionTime =
    old?.status === 'True' && old.lastTransitionTime !== undefined ? old.lastTransitionTime : now;
  status.conditions = [
    ...conditions.filter((c) => c.type !== 'DisruptionTarget'),
    { type: 'DisruptionTarget', status: 'True', reason, message, lastTransitionTime },
  ];
  return updated;
}
