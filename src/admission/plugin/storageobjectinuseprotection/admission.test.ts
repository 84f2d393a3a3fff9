// StorageObjectInUseProtection through the default chain over the real PVC and PV storages.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../../registry/generic/testing/memory-rest-options.js';
import { newPersistentVolumeREST } from '../../../registry/core/persistentvolume/storage.js';
import { newPersistentVolumeClaimREST } from '../../../registry/core/persistentvolumeclaim/storage.js';
import { admittedGroupsOf, type AdmittedGroups } from '../../testing/admitted-groups.js';
import { storageObjectInUseProtectionPluginName } from './admission.js';

const pvcAt = { group: '', resource: 'persistentvolumeclaims', namespace: 'team' };
const pvAt = { group: '', resource: 'persistentvolumes' };
const claim = (name: string, finalizers?: string[]): PersistentVolumeClaim => ({
  metadata: { name, ...(finalizers === undefined ? {} : { finalizers }) },
  spec: {
    accessModes: ['ReadWriteOnce'],
    resources: { requests: { storage: '1Gi' } },
    storageClassName: 'fast',
  },
});
const volume = (name: string): PersistentVolume => ({
  metadata: { name },
  spec: {
    capacity: { storage: '1Gi' },
    accessModes: ['ReadWriteOnce'],
    hostPath: { path: '/data' },
  },
});

describe('StorageObjectInUseProtection admission', () => {
  let rest: MemoryRESTOptions;
  let api: AdmittedGroups;

  before(async () => {
    rest = await memoryRESTOptions();
    const opts = { restOptionsGetter: rest.getter };
    const pvcs = await newPersistentVolumeClaimREST(opts);
    const pvs = await newPersistentVolumeREST(opts);
    api = admittedGroupsOf({
      '': { persistentvolumeclaims: pvcs.persistentVolumeClaims, persistentvolumes: pvs.persistentVolumes },
    });
  });
  after(async () => {
    api.chain.close();
    await rest.close();
  });

  it('is in the chain when claims or volumes are served', () => {
    assert.deepEqual(api.chain.names, [storageObjectInUseProtectionPluginName]);
  });

  it('adds kubernetes.io/pvc-protection to a new claim, once', async () => {
    assert.deepEqual((await api.create(pvcAt, claim('data'))).metadata?.finalizers, [
      'kubernetes.io/pvc-protection',
    ]);
    assert.deepEqual((await api.create(pvcAt, claim('mine', ['example.com/keep']))).metadata?.finalizers, [
      'example.com/keep',
      'kubernetes.io/pvc-protection',
    ]);
    assert.deepEqual(
      (await api.create(pvcAt, claim('already', ['kubernetes.io/pvc-protection']))).metadata?.finalizers,
      ['kubernetes.io/pvc-protection'],
    );
  });

  it('adds kubernetes.io/pv-protection to a new volume', async () => {
    assert.deepEqual((await api.create(pvAt, volume('disk'))).metadata?.finalizers, [
      'kubernetes.io/pv-protection',
    ]);
  });
});
