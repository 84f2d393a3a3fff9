// PersistentVolume storage (pkg/registry/core/persistentvolume/storage/storage.go): persistentvolumes
// (short name pv, cluster-scoped, under /registry/persistentvolumes/<name>) and persistentvolumes/status.
import type { PersistentVolume, PersistentVolumeList } from '../../../api/core/v1/persistent-volume.js';
import { newStoreWithStatus } from '../../generic/resource-storage.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../configmap/storage.js';
import type { StatusREST } from '../../generic/status-rest.js';
import {
  persistentVolumeDeleteStrategy,
  persistentVolumeStatusStrategy,
  persistentVolumeStrategy,
} from './strategy.js';
import { persistentVolumeTableConvertor } from './table.js';

export const persistentVolumeResource = { group: '', resource: 'persistentvolumes' } as const;

export interface PersistentVolumeStorage {
  readonly persistentVolumes: Store<PersistentVolume>;
  readonly status: StatusREST<PersistentVolume>;
}

export async function newPersistentVolumeREST(opts: CoreStorageOptions): Promise<PersistentVolumeStorage> {
  const { store, status } = await newStoreWithStatus<PersistentVolume>(
    {
      qualifiedResource: persistentVolumeResource,
      singularName: 'persistentvolume',
      newFunc: () => ({ apiVersion: 'v1', kind: 'PersistentVolume' }),
      newListFunc: () =>
        ({
          apiVersion: 'v1',
          kind: 'PersistentVolumeList',
          metadata: {},
          items: [],
        }) satisfies PersistentVolumeList,
      createStrategy: persistentVolumeStrategy,
      updateStrategy: persistentVolumeStrategy,
      deleteStrategy: persistentVolumeDeleteStrategy,
      returnDeletedObject: true,
      tableConvertor: persistentVolumeTableConvertor,
      shortNames: ['pv'],
      trackGeneration: false,
    },
    opts,
    { statusStrategy: persistentVolumeStatusStrategy },
  );
  return { persistentVolumes: store, status };
}
