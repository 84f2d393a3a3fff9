import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { VolumeLookup } from './volume-binding.js';
import { volumeTopologies, volumeZoneFits } from './volume-zone.js';

const claims: Record<string, PersistentVolumeClaim> = {
  zoned: { metadata: { name: 'zoned', namespace: 'ns' }, spec: { volumeName: 'pv-a' } },
  legacy: { metadata: { name: 'legacy', namespace: 'ns' }, spec: { volumeName: 'pv-b' } },
  pending: { metadata: { name: 'pending', namespace: 'ns' }, spec: {} },
};
const volumes: Record<string, PersistentVolume> = {
  'pv-a': { metadata: { name: 'pv-a', labels: { 'topology.kubernetes.io/zone': 'a__b' } } },
  'pv-b': { metadata: { name: 'pv-b', labels: { 'failure-domain.beta.kubernetes.io/region': 'east' } } },
};
const lookup: VolumeLookup = {
  claim: (namespace, name) => (namespace === 'ns' ? claims[name] : undefined),
  volume: (name) => volumes[name],
  volumes: () => Object.values(volumes),
  storageClass: () => undefined,
};
const podUsing = (...claimNames: string[]): Pod => ({
  metadata: { name: 'p', namespace: 'ns' },
  spec: {
    containers: [],
    volumes: claimNames.map((claimName, i) => ({
      name: `v${String(i)}`,
      persistentVolumeClaim: { claimName },
    })),
  },
});

describe('VolumeZone', () => {
  it("reads the bound volumes' zone and region labels, a__b as either", () => {
    const topologies = volumeTopologies(podUsing('zoned', 'legacy', 'pending'), lookup);
    assert.deepEqual(
      topologies.map((t) => [t.key, [...t.values]]),
      [
        ['topology.kubernetes.io/zone', ['a', 'b']],
        ['failure-domain.beta.kubernetes.io/region', ['east']],
      ],
    );
    const zone = (z: string) => ({
      'topology.kubernetes.io/zone': z,
      'topology.kubernetes.io/region': 'east',
    });
    assert.equal(volumeZoneFits(topologies, zone('b')), true);
    // The beta region key is matched against the node's GA label.
    assert.equal(volumeZoneFits(topologies, zone('c')), false);
    assert.equal(volumeZoneFits(topologies, { 'topology.kubernetes.io/zone': 'a' }), false);
    // A node without any zone or region label fits (a single-zone cluster's).
    assert.equal(volumeZoneFits(topologies, { 'kubernetes.io/hostname': 'n1' }), true);
    assert.equal(volumeZoneFits([], zone('c')), true);
  });
});
