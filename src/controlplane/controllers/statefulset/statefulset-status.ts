// The counts a StatefulSet reports (stateful_set_control.go's computeReplicaStatus): pods that exist,
// are ready, available (minReadySeconds), of the current and of the update revision; the current
// revision becomes the update revision once every replica runs it.
import type { StatefulSet, StatefulSetStatus } from '../../../api/apps/v1/stateful-set.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { isPodReady, podAvailability } from '../simulation/controller-ref.js';
import { revisionLabel, updateRevision } from './stateful-pods.js';

export function statefulSetStatus(set: StatefulSet, pods: readonly Pod[], now: number): StatefulSetStatus {
  const update = updateRevision(set);
  const current = set.status?.currentRevision ?? update;
  const live = pods.filter((p) => p.metadata?.deletionTimestamp === undefined);
  const revisionOf = (p: Pod): string | undefined => p.metadata?.labels?.[revisionLabel];
  const updated = live.filter((p) => revisionOf(p) === update).length;
  const replicas = set.spec?.replicas ?? 1;
  const rolledOut = updated === replicas && live.length === replicas;
  return {
    ...set.status,
    observedGeneration: set.metadata?.generation ?? 0,
    replicas: live.length,
    readyReplicas: live.filter(isPodReady).length,
    availableReplicas: live.filter((p) => podAvailability(p, set.spec?.minReadySeconds ?? 0, now).available)
      .length,
    currentReplicas: rolledOut ? updated : live.filter((p) => revisionOf(p) === current).length,
    updatedReplicas: updated,
    currentRevision: rolledOut ? update : current,
    updateRevision: update,
    collisionCount: set.status?.collisionCount ?? 0,
  };
}

export const sameStatefulSetStatus = (a: StatefulSetStatus | undefined, b: StatefulSetStatus): boolean =>
  JSON.stringify({ ...a, conditions: undefined }) === JSON.stringify({ ...b, conditions: undefined });
