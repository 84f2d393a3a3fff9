import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import type { Node } from '../../../api/core/v1/node.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { CSIStorageCapacity } from '../../../api/storage/v1/csi-storage-capacity.js';
import type { StorageClass } from '../../../api/storage/v1/storage-class.js';
import { annBindCompleted } from '../persistentvolume/volume-util.js';
import {
  boundVolumeSelectors,
  podVolumeBindings,
  volumeBindConflict,
  volumeCapacityShort,
  type VolumeLookup,
} from './volume-binding.js';

const required = {
  nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }],
};
const claim = (name: string, volumeName: string, bound: boolean): PersistentVolumeClaim => ({
  metadata: { name, namespace: 'ns', ...(bound ? { annotations: { [annBindCompleted]: 'yes' } } : {}) },
  spec: { volumeName },
});
const lookup = (
  claims: PersistentVolumeClaim[],
  volumes: PersistentVolume[],
  classes: StorageClass[] = [],
): VolumeLookup => ({
  claim: (_ns, name) => claims.find((c) => c.metadata?.name === name),
  volume: (name) => volumes.find((v) => v.metadata?.name === name),
  volumes: () => volumes,
  storageClass: (name) => classes.find((c) => c.metadata?.name === name),
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

  it('fits waiting claims on a node only to volumes it can reach, one each, or to a provisioner', () => {
    const node = (name: string, zone: string): Node => ({ metadata: { name, labels: { zone } } });
    const localVolume = (name: string, host: string): PersistentVolume => ({
      metadata: { name },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        storageClassName: 'local',
        nodeAffinity: {
          required: {
            nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [host] }] }],
          },
        },
      },
      status: { phase: 'Available' },
    });
    const waiting = (name: string, storageClassName: string): PersistentVolumeClaim => ({
      metadata: { name, namespace: 'ns' },
      spec: { storageClassName, accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    const classes: StorageClass[] = [
      { metadata: { name: 'local' }, provisioner: 'kubernetes.io/no-provisioner' },
      {
        metadata: { name: 'zonal' },
        provisioner: 'capstan.dev/simulated',
        allowedTopologies: [{ matchLabelExpressions: [{ key: 'zone', values: ['a'] }] }],
      },
    ];
    const volumes = [localVolume('on-n1', 'n1')];
    const l = lookup([], volumes, classes);
    const c1 = waiting('c1', 'local');
    assert.deepEqual(podVolumeBindings([c1], node('n1', 'a'), l), {
      static: [[c1, volumes[0]]],
      provision: [],
    });
    assert.equal(podVolumeBindings([c1], node('n2', 'a'), l), volumeBindConflict);
    // Two claims cannot share the one volume n1 has.
    assert.equal(podVolumeBindings([c1, waiting('c2', 'local')], node('n1', 'a'), l), volumeBindConflict);
    // A provisioner makes one where the class's topology allows.
    const c3 = waiting('c3', 'zonal');
    assert.deepEqual(podVolumeBindings([c3], node('n2', 'a'), l), { static: [], provision: [c3] });
    assert.equal(podVolumeBindings([c3], node('n3', 'b'), l), volumeBindConflict);
    // A volume another claim holds (bound, or pre-bound by the scheduler) is not taken.
    const held: PersistentVolume = {
      ...localVolume('on-n1', 'n1'),
      spec: { ...localVolume('on-n1', 'n1').spec, claimRef: { namespace: 'ns', name: 'other' } },
    };
    assert.equal(podVolumeBindings([c1], node('n1', 'a'), lookup([], [held], classes)), volumeBindConflict);
    // A claim given a volume for an earlier try of its pod goes where that volume is, though its
    // class could provision one elsewhere.
    const c4 = waiting('c4', 'zonal');
    const given: PersistentVolume = {
      ...localVolume('for-c4', 'n1'),
      spec: { ...localVolume('for-c4', 'n1').spec, claimRef: { namespace: 'ns', name: 'c4' } },
    };
    const withGiven = lookup([], [given], classes);
    assert.deepEqual(podVolumeBindings([c4], node('n1', 'a'), withGiven), {
      static: [[c4, given]],
      provision: [],
    });
    assert.equal(podVolumeBindings([c4], node('n2', 'a'), withGiven), volumeBindConflict);
  });

  it('provisions only where a CSI driver that reports its capacity has room for the claim', () => {
    const node = (name: string, zone: string): Node => ({ metadata: { name, labels: { zone } } });
    const claimOf = (name: string, storage?: string): PersistentVolumeClaim => ({
      metadata: { name, namespace: 'ns' },
      spec: {
        storageClassName: 'fast',
        accessModes: ['ReadWriteOnce'],
        ...(storage === undefined ? {} : { resources: { requests: { storage } } }),
      },
    });
    const classes: StorageClass[] = [{ metadata: { name: 'fast' }, provisioner: 'csi.example.com' }];
    const capacity = (name: string, zone: string | undefined, sizes: Partial<CSIStorageCapacity>) =>
      ({
        metadata: { name, namespace: 'kube-system' },
        storageClassName: 'fast',
        ...(zone === undefined ? {} : { nodeTopology: { matchLabels: { zone } } }),
        ...sizes,
      }) as CSIStorageCapacity;
    const capacities = [
      capacity('a', 'a', { capacity: '10Gi' }),
      capacity('b', 'b', { capacity: '100Gi', maximumVolumeSize: '2Gi' }),
      capacity('nowhere', undefined, { capacity: '1Ti' }),
    ];
    const withDriver = (storageCapacity: boolean | undefined): VolumeLookup => ({
      ...lookup([], [], classes),
      csiDriver: (name) =>
        name === 'csi.example.com'
          ? {
              metadata: { name },
              spec: storageCapacity === undefined ? {} : { storageCapacity },
            }
          : undefined,
      storageCapacities: () => capacities,
    });
    const l = withDriver(true);
    const small = claimOf('small', '1Gi');
    assert.deepEqual(podVolumeBindings([small], node('n1', 'a'), l), { static: [], provision: [small] });
    assert.deepEqual(podVolumeBindings([small], node('n2', 'b'), l), { static: [], provision: [small] });
    // Zone b's largest volume is 2Gi, whatever its total; zone c has no capacity object (one
    // without a topology reaches no node).
    assert.equal(podVolumeBindings([claimOf('big', '5Gi')], node('n2', 'b'), l), volumeCapacityShort);
    assert.deepEqual(podVolumeBindings([claimOf('big', '5Gi')], node('n1', 'a'), l), {
      static: [],
      provision: [claimOf('big', '5Gi')],
    });
    assert.equal(podVolumeBindings([small], node('n3', 'c'), l), volumeCapacityShort);
    // Not checked: no request, or a driver that does not report its capacity.
    assert.deepEqual(podVolumeBindings([claimOf('any')], node('n3', 'c'), l), {
      static: [],
      provision: [claimOf('any')],
    });
    for (const off of [withDriver(false), withDriver(undefined), lookup([], [], classes)])
      assert.deepEqual(podVolumeBindings([small], node('n3', 'c'), off), { static: [], provision: [small] });
  });
});
