// PersistentVolume storage (pkg/registry/core/persistentvolume/storage/storage.go): persistentvolumes
// (short name pv, cluster-scoped, under /registry/persistentvolumes/<name>) and persistentvolumes/status.
import type { PersistentVolume, PersistentVolumeList } from '../../../api/core/v1/persistent-volume.js';
import { newStoreWithStatus } from '../../generic/resource-storage.js';
import { clockFor } from '../../generic/rest-options.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../configmap/storage.js';
import type { StatusREST } from '../../generic/status-rest.js';
import { persistentVolumeDeleteStrategy, persistentVolumeStrategies } from './strategy.js';
import { persistentVolumeTableConvertor } from './table.js';

export const persistentVolumeResource = { group: '', resource: 'persistentvolumes' } as const;

export interface PersistentVolumeStorage {
  readonly persistentVolumes: Store<PersistentVolume>;
  readonly status: StatusREST<PersistentVolume>;
}

export async function newPersistentVolumeREST(opts: CoreStorageOptions): Promise<PersistentVolumeStorage> {
  const clock = clockFor(opts.restOptionsGetter, persistentVolumeResource);
  const strategies = persistentVolumeStrategies(() => clock.now());
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
      createStrategy: strategies.main,
      updateStrategy: strategies.main,
      deleteStrategy: persistentVolumeDeleteStrategy,
      returnDeletedObject: true,
      tableConvertor: persistentVolumeTableConvertor,
      shortNames: ['pv'],
      trackGeneration: false,
    },
    opts,
    { statusStrategy: strategies.status },
  );
  return { persistentVolumes: store, status };
}
