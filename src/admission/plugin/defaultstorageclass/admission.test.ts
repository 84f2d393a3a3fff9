// DefaultStorageClass through the default chain over the real PVC and StorageClass storages.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import type { StorageClass } from '../../../api/storage/v1/storage-class.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../../registry/generic/testing/memory-rest-options.js';
import { newPersistentVolumeClaimREST } from '../../../registry/core/persistentvolumeclaim/storage.js';
import { newStorageClassREST } from '../../../registry/storage/storageclass/storage.js';
import { admittedGroupsOf, type AdmittedGroups } from '../../testing/admitted-groups.js';
import { defaultStorageClassPluginName } from './admission.js';

const pvcAt = { group: '', resource: 'persistentvolumeclaims', namespace: 'team' };
const classesAt = { group: 'storage.k8s.io', resource: 'storageclasses' };
const claim = (
  name: string,
  extra: { storageClassName?: string; annotations?: Record<string, string> } = {},
): PersistentVolumeClaim => ({
  metadata: { name, ...(extra.annotations === undefined ? {} : { annotations: extra.annotations }) },
  spec: {
    accessModes: ['ReadWriteOnce'],
    resources: { requests: { storage: '1Gi' } },
    ...(extra.storageClassName === undefined ? {} : { storageClassName: extra.storageClassName }),
  },
});
const storageClass = (name: string, annotations: Record<string, string> = {}): StorageClass => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name, annotations },
  provisioner: 'example.com/disk',
});
const isDefault = { 'storageclass.kubernetes.io/is-default-class': 'true' };

describe('DefaultStorageClass admission', () => {
  let rest: MemoryRESTOptions;
  let api: AdmittedGroups;
  const classOf = async (name: string, extra?: Parameters<typeof claim>[1]): Promise<string | undefined> =>
    (await api.create(pvcAt, claim(name, extra))).spec?.storageClassName;

  before(async () => {
    rest = await memoryRESTOptions();
    const opts = { restOptionsGetter: rest.getter };
    const pvcs = await newPersistentVolumeClaimREST(opts);
    api = admittedGroupsOf(
      {
        '': { persistentvolumeclaims: pvcs.persistentVolumeClaims },
        'storage.k8s.io': { storageclasses: await newStorageClassREST(opts) },
      },
      { disable: ['StorageObjectInUseProtection'] },
    );
  });
  after(async () => {
    api.chain.close();
    await rest.close();
  });

  it('is in the chain when storageclasses are served', () => {
    assert.deepEqual(api.chain.names, [defaultStorageClassPluginName, 'PersistentVolumeClaimResize']);
  });

  it('leaves a claim unchanged while no class is the default', async () => {
    await api.create(classesAt, storageClass('plain'));
    assert.equal(await classOf('none'), undefined);
  });

  it('gives a claim without a class the default one; newest wins, beta annotation counts', async () => {
    await api.create(classesAt, storageClass('old-default', isDefault));
    assert.equal(await classOf('first'), 'old-default');
    // creationTimestamp has a one-second resolution.
    await sleep(1100);
    await api.create(
      classesAt,
      storageClass('new-default', { 'storageclass.beta.kubernetes.io/is-default-class': 'true' }),
    );
    assert.equal(await classOf('second'), 'new-default');
  });

  it('keeps a class the claim asks for, even "", and the beta class annotation', async () => {
    assert.equal(await classOf('fast', { storageClassName: 'fast' }), 'fast');
    assert.equal(await classOf('empty', { storageClassName: '' }), '');
    assert.equal(
      await classOf('annotated', { annotations: { 'volume.beta.kubernetes.io/storage-class': 'slow' } }),
      undefined,
    );
  });
});
