import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { CSINode } from '../../../api/storage/v1/csi-node.js';
import type { VolumeLookup } from './volume-binding.js';
import { csiVolumesOf, exceedsVolumeLimits } from './volume-limits.js';

const driver = 'disk.csi.example.com';
const claims: Record<string, PersistentVolumeClaim> = {
  a: { metadata: { name: 'a', namespace: 'ns' }, spec: { volumeName: 'pv-a' } },
  b: { metadata: { name: 'b', namespace: 'ns' }, spec: { volumeName: 'pv-b' } },
  later: { metadata: { name: 'later', namespace: 'ns' }, spec: { storageClassName: 'disks' } },
  nfs: { metadata: { name: 'nfs', namespace: 'ns' }, spec: { volumeName: 'pv-nfs' } },
};
const csiVolume = (name: string, handle: string): PersistentVolume => ({
  metadata: { name },
  spec: { csi: { driver, volumeHandle: handle } },
});
const volumes: Record<string, PersistentVolume> = {
  'pv-a': csiVolume('pv-a', 'h-a'),
  'pv-b': csiVolume('pv-b', 'h-b'),
  'pv-nfs': { metadata: { name: 'pv-nfs' }, spec: { nfs: { server: 's', path: '/' } } },
};
const lookup: VolumeLookup = {
  claim: (namespace, name) => (namespace === 'ns' ? claims[name] : undefined),
  volume: (name) => volumes[name],
  volumes: () => Object.values(volumes),
  storageClass: (name) => (name === 'disks' ? { metadata: { name }, provisioner: driver } : undefined),
};
const podUsing = (name: string, ...claimNames: string[]): Pod => ({
  metadata: { name, namespace: 'ns' },
  spec: {
    containers: [],
    volumes: claimNames.map((claimName, i) => ({
      name: `v${String(i)}`,
      persistentVolumeClaim: { claimName },
    })),
  },
});
const csiNode = (count: number): CSINode => ({
  metadata: { name: 'n1' },
  spec: { drivers: [{ name: driver, nodeID: 'n1', allocatable: { count } }] },
});

describe('NodeVolumeLimits (CSI)', () => {
  it("counts a pod's bound CSI volumes by handle, and an unbound claim by its class's provisioner", () => {
    const found = csiVolumesOf(podUsing('p', 'a', 'later', 'nfs', 'missing'), lookup);
    assert.deepEqual(
      [...found].map(([d, v]) => [d, [...v]]),
      [[driver, [`${driver}/h-a`, `${driver}/ns-later`]]],
    );
  });

  it('refuses a node whose driver would attach more than its count, not counting a volume twice', () => {
    const onNode = [csiVolumesOf(podUsing('there', 'a'), lookup)];
    const wantsB = csiVolumesOf(podUsing('p', 'b'), lookup);
    assert.equal(exceedsVolumeLimits(wantsB, onNode, csiNode(1)), true);
    assert.equal(exceedsVolumeLimits(wantsB, onNode, csiNode(2)), false);
    // The same volume as a pod there already uses is no new attachment.
    assert.equal(exceedsVolumeLimits(csiVolumesOf(podUsing('p', 'a'), lookup), onNode, csiNode(1)), false);
    // No CSINode, or no count for the driver: no limit.
    assert.equal(exceedsVolumeLimits(wantsB, onNode, undefined), false);
    const unlimited: CSINode = {
      metadata: { name: 'n1' },
      spec: { drivers: [{ name: driver, nodeID: 'n1' }] },
    };
    assert.equal(exceedsVolumeLimits(wantsB, onNode, unlimited), false);
  });
});
