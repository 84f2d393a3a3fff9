// PersistentVolumeClaim storage (pkg/registry/core/persistentvolumeclaim/storage/storage.go):
// persistentvolumeclaims (short name pvc, under /registry/persistentvolumeclaims/<ns>/<name>) and
// persistentvolumeclaims/status.
import type {
  PersistentVolumeClaim,
  PersistentVolumeClaimList,
} from '../../../api/core/v1/persistent-volume-claim.js';
import { newStoreWithStatus } from '../../generic/resource-storage.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../configmap/storage.js';
import type { StatusREST } from '../../generic/status-rest.js';
import {
  persistentVolumeClaimDeleteStrategy,
  persistentVolumeClaimStatusStrategy,
  persistentVolumeClaimStrategy,
} from './strategy.js';
import { persistentVolumeClaimTableConvertor } from './table.js';

export const persistentVolumeClaimResource = { group: '', resource: 'persistentvolumeclaims' } as const;

export interface PersistentVolumeClaimStorage {
  readonly persistentVolumeClaims: Store<PersistentVolumeClaim>;
  readonly status: StatusREST<PersistentVolumeClaim>;
}

export async function newPersistentVolumeClaimREST(
  opts: CoreStorageOptions,
): Promise<PersistentVolumeClaimStorage> {
  const { store, status } = await newStoreWithStatus<PersistentVolumeClaim>(
    {
      qualifiedResource: persistentVolumeClaimResource,
      singularName: 'persistentvolumeclaim',
      newFunc: () => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim' }),
      newListFunc: () =>
        ({
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaimList',
          metadata: {},
          items: [],
        }) satisfies PersistentVolumeClaimList,
      createStrategy: persistentVolumeClaimStrategy,
      updateStrategy: persistentVolumeClaimStrategy,
      deleteStrategy: persistentVolumeClaimDeleteStrategy,
      returnDeletedObject: true,
      tableConvertor: persistentVolumeClaimTableConvertor,
      shortNames: ['pvc'],
      trackGeneration: false,
    },
    opts,
    { statusStrategy: persistentVolumeClaimStatusStrategy },
  );
  return { persistentVolumeClaims: store, status };
}
