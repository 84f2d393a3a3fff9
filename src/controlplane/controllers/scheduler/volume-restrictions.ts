// kube-scheduler's VolumeRestrictions filter (pkg/scheduler/framework/plugins/volumerestrictions), for
// ReadWriteOncePod claims: a pod whose claim with that access mode another placed pod already uses
// fits no node while that pod is there. The verdict is the cluster's, so every node gets the same
// resolvable reason, and preemption may make room by taking the other pod off.
import type { Pod } from '../../../api/core/v1/pod.js';
import { claimNameOf, type VolumeLookup } from './volume-binding.js';

export const readWriteOncePodConflict =
  'node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode';

/** The names of the pod's claims that are ReadWriteOncePod (in its namespace). */
function readWriteOncePodClaims(pod: Pod, lookup: VolumeLookup): Set<string> {
  const namespace = pod.metadata?.namespace ?? '';
  const names = new Set<string>();
  for (const volume of pod.spec?.volumes ?? []) {
    const name = claimNameOf(pod, volume);
    if (name === undefined) continue;
    if ((lookup.claim(namespace, name)?.spec?.accessModes ?? []).includes('ReadWriteOncePod'))
      names.add(name);
  }
  return names;
}

/**
 * Whether a placed pod other than `pod` uses one of its ReadWriteOncePod claims (the PreFilter's
 * conflicting reference count above zero). `placed` lists the pods on the nodes, terminating ones
 * too, only for a pod that has such a claim.
 */
export function hasReadWriteOncePodConflict(
  pod: Pod,
  placed: () => Iterable<Pod>,
  lookup: VolumeLookup,
): boolean {
  const claims = readWriteOncePodClaims(pod, lookup);
  if (claims.size === 0) return false;
  const namespace = pod.metadata?.namespace ?? '';
  const uid = pod.metadata?.uid;
  for (const other of placed()) {
    if (other.metadata?.namespace !== namespace || (uid !== undefined && other.metadata.uid === uid))
      continue;
    for (const volume of other.spec?.volumes ?? []) {
      const name = claimNameOf(other, volume);
      if (name !== undefined && claims.has(name)) return true;
    }
  }
  return false;
}
