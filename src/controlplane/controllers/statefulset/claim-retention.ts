// persistentVolumeClaimRetentionPolicy (stateful_set_utils.go's updateClaimOwnerRefForSetAndPod):
// the owner references a pod's claims carry so that the garbage collector deletes them with the set
// (whenDeleted: Delete) or with the pod once it has been scaled away (whenScaled: Delete); Retain
// removes the reference again.
import type { StatefulSet } from '../../../api/apps/v1/stateful-set.js';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { OwnerReference } from '../../../api/meta.js';
import { statefulSetKind } from './stateful-pods.js';

type Policy = 'Retain' | 'Delete';

const policyOf = (set: StatefulSet): { whenDeleted: Policy; whenScaled: Policy } => {
  const p = set.spec?.persistentVolumeClaimRetentionPolicy;
  return {
    whenDeleted: p?.whenDeleted === 'Delete' ? 'Delete' : 'Retain',
    whenScaled: p?.whenScaled === 'Delete' ? 'Delete' : 'Retain',
  };
};

const refTo = (
  obj: { metadata?: { name?: string; uid?: string } },
  gvk: { apiVersion: string; kind: string },
): OwnerReference => ({
  apiVersion: gvk.apiVersion,
  kind: gvk.kind,
  name: obj.metadata?.name ?? '',
  uid: obj.metadata?.uid ?? '',
});

/**
 * The claim's owner references under the set's policy, for a pod in the set's ordinal range or
 * scaled away from it; undefined when they are already right.
 */
export function claimOwnerRefs(
  claim: PersistentVolumeClaim,
  owners: { set: StatefulSet; pod: Pod; inRange: boolean },
): OwnerReference[] | undefined {
  const { set, pod, inRange } = owners;
  const { whenDeleted, whenScaled } = policyOf(set);
  const ownedBySet = whenDeleted === 'Delete' && (inRange || whenScaled === 'Retain');
  const ownedByPod = whenScaled === 'Delete' && !inRange;
  const wanted = new Map<string, OwnerReference>();
  if (ownedBySet) wanted.set(set.metadata?.uid ?? '', refTo(set, statefulSetKind));
  if (ownedByPod) wanted.set(pod.metadata?.uid ?? '', refTo(pod, { apiVersion: 'v1', kind: 'Pod' }));
  const current = claim.metadata?.ownerReferences ?? [];
  const managed = new Set([set.metadata?.uid, pod.metadata?.uid]);
  const kept = current.filter((r) => !managed.has(r.uid) || wanted.has(r.uid));
  const missing = [...wanted.values()].filter((w) => !current.some((r) => r.uid === w.uid));
  if (missing.length === 0 && kept.length === current.length) return undefined;
  return [...kept, ...missing];
}
