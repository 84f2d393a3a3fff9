import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { annBindCompleted } from '../persistentvolume/volume-util.js';
import { boundVolumeSelectors, type VolumeLookup } from './volume-binding.js';

const required = {
  nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }],
};
const claim = (name: string, volumeName: string, bound: boolean): PersistentVolumeClaim => ({
  metadata: { name, namespace: 'ns', ...(bound ? { annotations: { [annBindCompleted]: 'yes' } } : {}) },
  spec: { volumeName },
});
const lookup = (claims: PersistentVolumeClaim[], volumes: PersistentVolume[]): VolumeLookup => ({
  claim: (_ns, name) => claims.find((c) => c.metadata?.name === name),
  volume: (name) => volumes.find((v) => v.metadata?.name === name),
  storageClass: () => undefined,
});
const pod = (...claimNames: string[]): Pod => ({
  metadata: { name: 'p', namespace: 'ns' },
  spec: {
    containers: [{ name: 'c' }],
    volumes: claimNames.map((claimName) => ({ name: claimName, persistentVolumeClaim: { claimName } })),
  },
});

describe('VolumeBinding: bound volumes’ node affinity', () => {
  it('gives the required selector of each bound claim’s volume, none for a volume without one', () => {
    const volumes: PersistentVolume[] = [
      { metadata: { name: 'pinned' }, spec: { nodeAffinity: { required } } },
      { metadata: { name: 'anywhere' }, spec: {} },
    ];
    const claims = [claim('a', 'pinned', true), claim('b', 'anywhere', true)];
    assert.deepEqual(boundVolumeSelectors(pod('a', 'b'), lookup(claims, volumes)), [required]);
  });

  it('skips claims not fully bound, and waits for a bound claim’s volume it has not seen', () => {
    const claims = [claim('a', 'pinned', false), claim('b', 'unseen', true)];
    assert.deepEqual(boundVolumeSelectors(pod('a'), lookup(claims, [])), []);
    assert.equal(boundVolumeSelectors(pod('a', 'b'), lookup(claims, [])), undefined);
  });
});
