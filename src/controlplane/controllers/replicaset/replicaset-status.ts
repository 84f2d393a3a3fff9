// calculateStatus (pkg/controller/replicaset/replica_set_utils.go): the counts a ReplicaSet reports
// from its active pods.
import type { ReplicaSet, ReplicaSetStatus } from '../../../api/apps/v1/replica-set.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { podAvailability, isPodReady } from '../simulation/controller-ref.js';

export interface CalculatedStatus {
  readonly status: ReplicaSetStatus;
  /** When a ready pod becomes available (minReadySeconds), in ms from now. */
  readonly recheckAfterMs: number | undefined;
}

export function calculateStatus(rs: ReplicaSet, active: readonly Pod[], now: number): CalculatedStatus {
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
    ...(rs.status?.conditions === undefined ? {} : { conditions: rs.status.conditions }),
  };
  return { status, recheckAfterMs: recheck };
}

export const sameStatus = (a: ReplicaSetStatus | undefined, b: ReplicaSetStatus): boolean =>
  (a?.replicas ?? 0) === (b.replicas ?? 0) &&
  (a?.fullyLabeledReplicas ?? 0) === (b.fullyLabeledReplicas ?? 0) &&
  (a?.readyReplicas ?? 0) === (b.readyReplicas ?? 0) &&
  (a?.availableReplicas ?? 0) === (b.availableReplicas ?? 0) &&
  (a?.observedGeneration ?? 0) === (b.observedGeneration ?? 0);
