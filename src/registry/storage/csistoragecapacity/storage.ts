// CSIStorageCapacity storage (pkg/registry/storage/csistoragecapacity/storage/storage.go):
// namespaced `/csistoragecapacities`.
import type {
  CSIStorageCapacity,
  CSIStorageCapacityList,
} from '../../../api/storage/v1/csi-storage-capacity.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../../core/configmap/storage.js';
import { csiStorageCapacityDeleteStrategy, csiStorageCapacityStrategy } from './strategy.js';
import { csiStorageCapacityTableConvertor } from './table.js';

export const csiStorageCapacityResource = {
  group: 'storage.k8s.io',
  resource: 'csistoragecapacities',
} as const;

export function newCSIStorageCapacityREST(opts: CoreStorageOptions): Promise<Store<CSIStorageCapacity>> {
  return completeResourceStore<CSIStorageCapacity>(
    {
      qualifiedResource: csiStorageCapacityResource,
      singularName: 'csistoragecapacity',
      newFunc: () => ({ apiVersion: 'storage.k8s.io/v1', kind: 'CSIStorageCapacity', storageClassName: '' }),
      newListFunc: () =>
        ({
          apiVersion: 'storage.k8s.io/v1',
          kind: 'CSIStorageCapacityList',
          metadata: {},
          items: [],
        }) satisfies CSIStorageCapacityList,
      createStrategy: csiStorageCapacityStrategy,
      updateStrategy: csiStorageCapacityStrategy,
      deleteStrategy: csiStorageCapacityDeleteStrategy,
      tableConvertor: csiStorageCapacityTableConvertor,
      // kube's strategy leaves metadata.generation unset.
      trackGeneration: false,
    },
    opts,
  );
}
