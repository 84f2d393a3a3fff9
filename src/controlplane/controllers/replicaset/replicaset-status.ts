// calculateStatus (pkg/controller/replicaset/replica_set_utils.go): the counts a ReplicaSet reports
// from its active pods, and the ReplicaFailure condition while creating or deleting them fails.
import type { AppsCondition } from '../../../api/apps/v1/group.js';
import type { ReplicaSet, ReplicaSetStatus } from '../../../api/apps/v1/replica-set.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { jsonEqual } from '../../../machinery/patch/json.js';
import { rfc3339 } from '../simulation/clock.js';
import { podAvailability, isPodReady } from '../simulation/controller-ref.js';

export interface CalculatedStatus {
  readonly status: ReplicaSetStatus;
  /** When a ready pod becomes available (minReadySeconds), in ms from now. */
  readonly recheckAfterMs: number | undefined;
}

/** ReplicaFailure: set (once, not updated) when managing replicas failed, removed when it worked. */
function conditionsAfter(
  rs: ReplicaSet,
  active: readonly Pod[],
  at: { now: number; manageError: string | undefined },
): AppsCondition[] | undefined {
  const conditions = rs.status?.conditions;
  const failure = conditions?.find((c) => c.type === 'ReplicaFailure');
  if (at.manageError === undefined)
    return failure === undefined ? conditions : conditions?.filter((c) => c !== failure);
  if (failure !== undefined) return conditions;
  const diff = active.length - (rs.spec?.replicas ?? 1);
  const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '';
  const condition: AppsCondition = {
    type: 'ReplicaFailure',
    status: 'True',
    lastTransitionTime: rfc3339(at.now),
    reason,
    message: at.manageError,
  };
  return [...(conditions ?? []), condition];
}

export function calculateStatus(
  rs: ReplicaSet,
  active: readonly Pod[],
  at: { now: number; manageError: string | undefined },
): CalculatedStatus {
  const { now } = at;
  const templateLabels = rs.spec?.template?.metadata?.labels ?? {};
  const minReady = rs.spec?.minReadySeconds ?? 0;
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  let recheck: number | undefined;
  for (const pod of active) {
    const labels = pod.metadata?.labels ?? {};
    if (Object.entries(templateLabels).every(([k, v]) => labels[k] === v)) fullyLabeled++;
    if (!isPodReady(pod)) continue;
    ready++;
    const a = podAvailability(pod, minReady, now);
    if (a.available) available++;
    else if (a.after !== undefined) recheck = Math.min(recheck ?? a.after, a.after);
  }
  const status: ReplicaSetStatus = {
    replicas: active.length,
    fullyLabeledReplicas: fullyLabeled,
    readyReplicas: ready,
    availableReplicas: available,
    observedGeneration: rs.metadata?.generation ?? 0,
  };
  const conditions = conditionsAfter(rs, active, at);
  if (conditions !== undefined) status.conditions = conditions;
  return { status, recheckAfterMs: recheck };
}

export const sameStatus = (a: ReplicaSetStatus | undefined, b: ReplicaSetStatus): boolean =>
  (a?.replicas ?? 0) === (b.replicas ?? 0) &&
  (a?.fullyLabeledReplicas ?? 0) === (b.fullyLabeledReplicas ?? 0) &&
  (a?.readyReplicas ?? 0) === (b.readyReplicas ?? 0) &&
  (a?.availableReplicas ?? 0) === (b.availableReplicas ?? 0) &&
  (a?.observedGeneration ?? 0) === (b.observedGeneration ?? 0) &&
  jsonEqual(a?.conditions ?? [], b.conditions ?? []);
