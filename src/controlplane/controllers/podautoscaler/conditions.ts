// The HPA's status conditions as kube's setConditionInList keeps them (pkg/controller/podautoscaler/
// horizontal.go): one per type, in the order first set; the transition time moves only when the
// status changes, while reason and message follow every call.
import type {
  HorizontalPodAutoscalerCondition,
  HorizontalPodAutoscalerStatus,
} from '../../../api/autoscaling/v2/types.js';

export const hpaConditionTypes = ['AbleToScale', 'ScalingActive', 'ScalingLimited'] as const;
export type HPAConditionType = (typeof hpaConditionTypes)[number];

export interface ConditionChange {
  readonly type: HPAConditionType;
  readonly status: 'True' | 'False';
  readonly reason: string;
  readonly message: string;
}

/** Sets one condition in `status.conditions`; `now` is an RFC 3339 time. */
export function setCondition(
  status: HorizontalPodAutoscalerStatus,
  change: ConditionChange,
  now: string,
): void {
  const list = status.conditions ?? [];
  const at = list.findIndex((c) => c.type === change.type);
  const old: HorizontalPodAutoscalerCondition | undefined = list[at];
  const lastTransitionTime = old !== undefined && old.status === change.status ? old.lastTransitionTime : now;
  // Go's member order: type, status, lastTransitionTime, reason, message.
  const next: HorizontalPodAutoscalerCondition = { type: change.type, status: change.status };
  if (lastTransitionTime !== undefined) next.lastTransitionTime = lastTransitionTime;
  next.reason = change.reason;
  next.message = change.message;
  status.conditions = at < 0 ? [...list, next] : list.map((c, i) => (i === at ? next : c));
}
