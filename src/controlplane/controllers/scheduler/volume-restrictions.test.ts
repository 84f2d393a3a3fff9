import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { Volume } from '../../../api/core/v1/volume.js';
import { hasDiskConflict } from './volume-restrictions.js';

const withVolumes = (...volumes: Volume[]): Pod => ({
  metadata: { name: 'p', namespace: 'default' },
  spec: { containers: [{ name: 'c' }], volumes },
});
const conflict = (pod: Pod, ...placed: Pod[]): boolean => hasDiskConflict(pod, () => placed);

describe('VolumeRestrictions: disks one node attaches for one writer', () => {
  it('refuses a GCE PD another pod on the node mounts, unless both mount it read-only', () => {
    const pd = (pdName: string, readOnly?: boolean): Pod =>
      withVolumes({
        name: 'd',
        gcePersistentDisk: { pdName, ...(readOnly === undefined ? {} : { readOnly }) },
      });
    assert.equal(conflict(pd('disk-a'), pd('disk-a')), true);
    assert.equal(conflict(pd('disk-a', true), pd('disk-a')), true);
    assert.equal(conflict(pd('disk-a', true), pd('disk-a', true)), false);
    assert.equal(conflict(pd('disk-a'), pd('disk-b')), false);
  });

  it('refuses an EBS volume another pod mounts, read-only or not', () => {
    const ebs = (volumeID: string, readOnly = false): Pod =>
      withVolumes({ name: 'd', awsElasticBlockStore: { volumeID, readOnly } });
    assert.equal(conflict(ebs('vol-1', true), ebs('vol-1', true)), true);
    assert.equal(conflict(ebs('vol-1'), ebs('vol-2')), false);
  });

  it('refuses an iSCSI target of the same IQN unless both are read-only', () => {
    const iscsi = (iqn: string, readOnly = false): Pod =>
      withVolumes({ name: 'd', iscsi: { targetPortal: '10.0.0.1:3260', iqn, lun: 0, readOnly } });
    assert.equal(
      conflict(iscsi('iqn.2020-01.io.example:t1'), iscsi('iqn.2020-01.io.example:t1', true)),
      true,
    );
    assert.equal(
      conflict(iscsi('iqn.2020-01.io.example:t1', true), iscsi('iqn.2020-01.io.example:t1', true)),
      false,
    );
    assert.equal(conflict(iscsi('iqn.2020-01.io.example:t1'), iscsi('iqn.2020-01.io.example:t2')), false);
  });

  it('refuses an RBD image of the same pool behind a shared monitor unless both are read-only', () => {
    const rbd = (monitors: string[], image: string, more: { pool?: string; readOnly?: boolean } = {}): Pod =>
      withVolumes({
        name: 'd',
        rbd: { monitors, image, pool: more.pool ?? 'rbd', readOnly: more.readOnly ?? false },
      });
    assert.equal(conflict(rbd(['m1', 'm2'], 'img'), rbd(['m2', 'm3'], 'img')), true);
    assert.equal(conflict(rbd(['m1'], 'img'), rbd(['m2'], 'img')), false);
    assert.equal(conflict(rbd(['m1'], 'img'), rbd(['m1'], 'img', { pool: 'other' })), false);
    assert.equal(conflict(rbd(['m1'], 'img'), rbd(['m1'], 'img2')), false);
    assert.equal(
      conflict(rbd(['m1'], 'img', { readOnly: true }), rbd(['m1'], 'img', { readOnly: true })),
      false,
    );
  });

  it('looks only at those kinds: shared claims and other volumes do not conflict here', () => {
    const claim = withVolumes({ name: 'd', persistentVolumeClaim: { claimName: 'data' } });
    assert.equal(conflict(claim, claim), false);
    const pd = withVolumes({ name: 'd', gcePersistentDisk: { pdName: 'disk-a' } });
    assert.equal(conflict(pd, claim, withVolumes({ name: 'e', emptyDir: {} })), false);
  });
});
