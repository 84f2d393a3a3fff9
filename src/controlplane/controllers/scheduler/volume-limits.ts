// kube-scheduler's NodeVolumeLimits filter for CSI volumes (pkg/scheduler/framework/plugins/
// nodevolumelimits/csi.go): a node's CSINode says how many volumes of each driver it can attach
// (`allocatable.count`); a pod whose new volumes would take a driver past that, counted with the
// volumes the node's pods already use, does not fit there (resolvable: preemption may free some).
import type { Pod } from '../../../api/core/v1/pod.js';
import type { CSINode } from '../../../api/storage/v1/csi-node.js';
import { claimNameOf, type VolumeLookup } from './volume-binding.js';

export const maxVolumeCountExceeded = 'node(s) exceed max volume count';

/** Each CSI driver's volumes a pod uses, by a name unique to the volume (driver/handle). */
export type DriverVolumes = Map<string, Set<string>>;

function add(into: DriverVolumes, driver: string, unique: string): void {
  let set = into.get(driver);
  if (set === undefined) into.set(driver, (set = new Set<string>()));
  set.add(unique);
}

/**
 * filterAttachableVolumes: the pod's inline CSI volumes, and its claims' volumes: a bound claim's
 * CSI volume by its handle, an unbound claim by its class's provisioner and the claim's own name (a
 * volume it will have). Claims not found, and volumes of no CSI driver, are not counted.
 */
export function csiVolumesOf(pod: Pod, lookup: VolumeLookup): DriverVolumes {
  const out: DriverVolumes = new Map();
  const namespace = pod.metadata?.namespace ?? '';
  for (const volume of pod.spec?.volumes ?? []) {
    const inline = volume.csi?.driver;
    if (inline !== undefined && inline !== '') {
      add(out, inline, `${inline}/${namespace}/${pod.metadata?.name ?? ''}/${volume.name}`);
      continue;
    }
    const claimName = claimNameOf(pod, volume);
    if (claimName === undefined) continue;
    const claim = lookup.claim(namespace, claimName);
    if (claim === undefined) continue;
    const volumeName = claim.spec?.volumeName ?? '';
    if (volumeName !== '') {
      const csi = lookup.volume(volumeName)?.spec?.csi;
      const driver = csi?.driver ?? '';
      if (driver !== '') add(out, driver, `${driver}/${csi?.volumeHandle ?? ''}`);
      continue;
    }
    const provisioner = lookup.storageClass(claim.spec?.storageClassName ?? '')?.provisioner;
    if (provisioner !== undefined) add(out, provisioner, `${provisioner}/${namespace}-${claimName}`);
  }
  return out;
}

/** Whether the pod's new volumes take a driver on the node past its CSINode's allocatable count. */
export function exceedsVolumeLimits(
  wanted: DriverVolumes,
  attached: Iterable<DriverVolumes>,
  csiNode: CSINode | undefined,
): boolean {
  if (wanted.size === 0 || csiNode === undefined) return false;
  for (const driver of csiNode.spec.drivers) {
    const limit = driver.allocatable?.count;
    const mine = wanted.get(driver.name);
    if (limit === undefined || mine === undefined) continue;
    const inUse = new Set<string>();
    for (const other of attached) for (const v of other.get(driver.name) ?? []) inUse.add(v);
    let added = 0;
    for (const v of mine) if (!inUse.has(v)) added++;
    if (added > 0 && inUse.size + added > limit) return true;
  }
  return false;
}
