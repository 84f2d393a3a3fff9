// PersistentVolumeClaimResize through the default chain over the real PVC and StorageClass
// storages: a bound claim grows only under a class that allows expansion.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import type { StorageClass } from '../../../api/storage/v1/storage-class.js';
import { isStatusError } from '../../../machinery/errors/index.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../../registry/generic/testing/memory-rest-options.js';
import { testContext } from '../../../registry/generic/testing/widgets.js';
import {
  newPersistentVolumeClaimREST,
  type PersistentVolumeClaimStorage,
} from '../../../registry/core/persistentvolumeclaim/storage.js';
import { newStorageClassREST } from '../../../registry/storage/storageclass/storage.js';
import { admittedGroupsOf, type AdmittedGroups } from '../../testing/admitted-groups.js';
import { attributesOf } from '../../testing/attributes.js';
import { PersistentVolumeClaimResize } from './admission.js';

const pvcAt = { group: '', resource: 'persistentvolumeclaims', namespace: 'team' };
const classesAt = { group: 'storage.k8s.io', resource: 'storageclasses' };
const storageClass = (name: string, allowVolumeExpansion?: boolean): StorageClass => ({
  metadata: { name },
  provisioner: 'example.com/disk',
  ...(allowVolumeExpansion === undefined ? {} : { allowVolumeExpansion }),
});
const claim = (name: string, storageClassName: string): PersistentVolumeClaim => ({
  metadata: { name, namespace: 'team' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName },
});
const sized = (pvc: PersistentVolumeClaim, storage: string): PersistentVolumeClaim => ({
  ...pvc,
  spec: { ...pvc.spec, resources: { requests: { storage } } },
});

describe('PersistentVolumeClaimResize admission', () => {
  let rest: MemoryRESTOptions;
  let pvcs: PersistentVolumeClaimStorage;
  let api: AdmittedGroups;

  /** A claim of `storageClassName`, bound to a volume as the PV controller binds it. */
  const boundClaim = async (name: string, storageClassName: string): Promise<PersistentVolumeClaim> => {
    const created = await api.createRaw(pvcAt, claim(name, storageClassName));
    const ctx = testContext('team');
    await pvcs.status.update(ctx, name, {
      objInfo: {
        preconditions: () => undefined,
        updatedObject: () => Promise.resolve({ ...created, status: { phase: 'Bound' } }),
      },
      options: {},
      forceAllowCreate: false,
    });
    return pvcs.persistentVolumeClaims.get(ctx, name, {});
  };
  const refusedWith = (message: string) => (err: unknown) => {
    assert.ok(isStatusError(err));
    assert.equal(err.status.code, 403);
    assert.match(err.message, new RegExp(`^persistentvolumeclaims "[a-z-]+" is forbidden: ${message}$`));
    return true;
  };
  const notResizable =
    'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize';

  before(async () => {
    rest = await memoryRESTOptions();
    const opts = { restOptionsGetter: rest.getter };
    pvcs = await newPersistentVolumeClaimREST(opts);
    api = admittedGroupsOf(
      {
        '': { persistentvolumeclaims: pvcs.persistentVolumeClaims },
        'storage.k8s.io': { storageclasses: await newStorageClassREST(opts) },
      },
      { disable: ['StorageObjectInUseProtection', 'DefaultStorageClass'] },
    );
    await api.createRaw(classesAt, storageClass('expandable', true));
    await api.createRaw(classesAt, storageClass('fixed', false));
    await api.createRaw(classesAt, storageClass('unsaid'));
  });
  after(async () => {
    api.chain.close();
    await rest.close();
  });

  it('is in the chain when claims and classes are served', () => {
    assert.ok(api.chain.names.includes('PersistentVolumeClaimResize'));
  });

  it('lets a bound claim grow under a class that allows expansion', async () => {
    const pvc = await boundClaim('grows', 'expandable');
    const out = await api.update(pvcAt, sized(pvc, '2Gi'));
    assert.equal(out.spec?.resources?.requests?.['storage'], '2Gi');
  });

  it('refuses growth under a class that does not allow it, or says nothing, or is gone', async () => {
    const fixed = await boundClaim('fixed-one', 'fixed');
    await assert.rejects(api.update(pvcAt, sized(fixed, '2Gi')), refusedWith(notResizable));
    const unsaid = await boundClaim('unsaid-one', 'unsaid');
    await assert.rejects(api.update(pvcAt, sized(unsaid, '1536Mi')), refusedWith(notResizable));
    const missing = await boundClaim('missing-one', 'no-such-class');
    await assert.rejects(api.update(pvcAt, sized(missing, '2Gi')), refusedWith(notResizable));
  });

  it('leaves alone an update that keeps the size', async () => {
    const pvc = await boundClaim('same', 'fixed');
    const out = await api.update(pvcAt, {
      ...pvc,
      metadata: { ...pvc.metadata, labels: { app: 'db' } },
    });
    assert.deepEqual(out.metadata.labels, { app: 'db' });
  });

  it('refuses growth of a claim that is not bound, and of one without a class', async () => {
    const plugin = new PersistentVolumeClaimResize({
      list: () => Promise.resolve([]),
      get: () => Promise.resolve(storageClass('expandable', true)),
      listNow: () => [],
      getNow: () => storageClass('expandable', true),
      close: () => undefined,
    });
    const ctx = testContext('team');
    const old = claim('pending', 'expandable');
    const update = (oldObject: PersistentVolumeClaim, object: PersistentVolumeClaim) =>
      Promise.resolve(
        plugin.validate(
          ctx,
          attributesOf({
            operation: 'UPDATE',
            resource: 'persistentvolumeclaims',
            name: 'pending',
            object,
            oldObject,
          }),
        ),
      );
    await assert.rejects(
      update(old, sized(old, '2Gi')),
      refusedWith('Only bound persistent volume claims can be expanded'),
    );
    const bound = { ...old, status: { phase: 'Bound' } };
    await update(bound, sized(bound, '2Gi'));
    const classless: PersistentVolumeClaim = { ...bound, spec: { ...bound.spec, storageClassName: '' } };
    await assert.rejects(update(classless, sized(classless, '2Gi')), refusedWith(notResizable));
    await update(bound, sized(bound, '512Mi'));
  });
});
