// kube-scheduler's VolumeZone filter (pkg/scheduler/framework/plugins/volumezone): a pod whose claims
// are bound to volumes labelled with a zone or region goes only to nodes in it.
import type { Pod } from '../../../api/core/v1/pod.js';
import type { VolumeLookup } from './volume-binding.js';

export const volumeZoneConflict = 'node(s) had no available volume zone';

const zoneLabels = [
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
];
const gaLabel: Readonly<Record<string, string>> = {
  'failure-domain.beta.kubernetes.io/zone': 'topology.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region': 'topology.kubernetes.io/region',
};

/** A zone or region label of a bound volume, with the values it allows (`a__b`: either). */
export interface VolumeTopology {
  readonly key: string;
  readonly values: ReadonlySet<string>;
}

/**
 * VolumeZone's PreFilter (getPVbyPod): the zone and region labels of the volumes the pod's claims
 * are bound to. A claim not bound yet is skipped (its binding, or the scheduler's, picks the zone).
 */
export function volumeTopologies(pod: Pod, lookup: VolumeLookup): VolumeTopology[] {
  const namespace = pod.metadata?.namespace ?? '';
  const out: VolumeTopology[] = [];
  for (const volume of pod.spec?.volumes ?? []) {
    const claimName = volume.persistentVolumeClaim?.claimName;
    if (claimName === undefined) continue;
    const volumeName = lookup.claim(namespace, claimName)?.spec?.volumeName ?? '';
    if (volumeName === '') continue;
    const labels = lookup.volume(volumeName)?.metadata?.labels ?? {};
    for (const key of zoneLabels) {
      const value = labels[key];
      if (value !== undefined) out.push({ key, values: new Set(value.split('__')) });
    }
  }
  return out;
}

/**
 * VolumeZone's Filter: a node that carries a zone or region label must carry each volume label's
 * key (or its GA name for a beta key) with one of its values. A node without any such label fits.
 */
export function volumeZoneFits(
  topologies: readonly VolumeTopology[],
  nodeLabels: Readonly<Record<string, string>>,
): boolean {
  if (topologies.length === 0 || !zoneLabels.some((key) => Object.hasOwn(nodeLabels, key))) return true;
  return topologies.every(({ key, values }) => {
    const value = nodeLabels[key] ?? nodeLabels[gaLabel[key] ?? ''];
    return value !== undefined && values.has(value);
  });
}
