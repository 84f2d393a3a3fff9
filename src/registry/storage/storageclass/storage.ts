// StorageClass storage (pkg/registry/storage/storageclass/storage/storage.go): cluster-scoped
// `/storageclasses`, short name sc.
import type { StorageClass, StorageClassList } from '../../../api/storage/v1/storage-class.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../../core/configmap/storage.js';
import { storageClassDeleteStrategy, storageClassStrategy } from './strategy.js';
import { storageClassTableConvertor } from './table.js';

export const storageClassResource = { group: 'storage.k8s.io', resource: 'storageclasses' } as const;

export function newStorageClassREST(opts: CoreStorageOptions): Promise<Store<StorageClass>> {
  return completeResourceStore<StorageClass>(
    {
      qualifiedResource: storageClassResource,
      singularName: 'storageclass',
      newFunc: () => ({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', provisioner: '' }),
      newListFunc: () =>
        ({
          apiVersion: 'storage.k8s.io/v1',
          kind: 'StorageClassList',
          metadata: {},
          items: [],
        }) satisfies StorageClassList,
      createStrategy: storageClassStrategy,
      updateStrategy: storageClassStrategy,
      deleteStrategy: storageClassDeleteStrategy,
      tableConvertor: storageClassTableConvertor,
      shortNames: ['sc'],
      trackGeneration: false,
    },
    opts,
  );
}
