// kube-scheduler's VolumeRestrictions filter (pkg/scheduler/framework/plugins/volumerestrictions).
// Disks a node can attach for one writer only: a pod whose GCE PD, EBS volume, iSCSI target or Ceph
// RBD image a pod on the node already mounts does not fit there (unless both mount it read-only,
// where the kind allows that). ReadWriteOncePod claims: a pod whose claim with that access mode
// another placed pod already uses fits no node while that pod is there. That verdict is the
// cluster's, so every node gets the same resolvable reason, and preemption may make room by taking
// the other pod off.
import type { Pod } from '../../../api/core/v1/pod.js';
import type { Volume } from '../../../api/core/v1/volume.js';
import { claimNameOf, type VolumeLookup } from './volume-binding.js';

export const diskConflict = 'node(s) had no available disk';

/** Whether the volume is of a kind whose mounts on one node conflict (needsRestrictionsCheck). */
const restricted = (v: Volume): boolean =>
  v.gcePersistentDisk != null || v.awsElasticBlockStore != null || v.iscsi != null || v.rbd != null;

const overlap = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean =>
  (a ?? []).some((m) => (b ?? []).includes(m));

/** isVolumeConflict: whether `v` is a disk one of `other`'s volumes already holds. */
function conflictsWith(v: Volume, other: Pod): boolean {
  for (const e of other.spec?.volumes ?? []) {
    const [gce, egce] = [v.gcePersistentDisk, e.gcePersistentDisk];
    if (gce != null && egce != null && (gce.pdName ?? '') === (egce.pdName ?? ''))
      if (!(gce.readOnly === true && egce.readOnly === true)) return true;
    const [ebs, eebs] = [v.awsElasticBlockStore, e.awsElasticBlockStore];
    if (ebs != null && eebs != null && (ebs.volumeID ?? '') === (eebs.volumeID ?? '')) return true;
    const [iscsi, eiscsi] = [v.iscsi, e.iscsi];
    if (iscsi != null && eiscsi != null && (iscsi.iqn ?? '') === (eiscsi.iqn ?? ''))
      if (!(iscsi.readOnly === true && eiscsi.readOnly === true)) return true;
    const [rbd, erbd] = [v.rbd, e.rbd];
    if (
      rbd != null &&
      erbd != null &&
      overlap(rbd.monitors, erbd.monitors) &&
      (rbd.pool ?? '') === (erbd.pool ?? '') &&
      (rbd.image ?? '') === (erbd.image ?? '') &&
      !(rbd.readOnly === true && erbd.readOnly === true)
    )
      return true;
  }
  return false;
}

/** satisfyVolumeConflicts, negated: whether a disk of the pod's is held by a pod on the node. */
export function hasDiskConflict(pod: Pod, podsOnNode: () => readonly Pod[]): boolean {
  const volumes = (pod.spec?.volumes ?? []).filter(restricted);
  if (volumes.length === 0) return false;
  const placed = podsOnNode();
  return volumes.some((v) => placed.some((other) => conflictsWith(v, other)));
}

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
