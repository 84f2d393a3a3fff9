// CSIDriver storage (pkg/registry/storage/csidriver/storage/storage.go): cluster-scoped `/csidrivers`.
import type { CSIDriver, CSIDriverList } from '../../../api/storage/v1/csi-driver.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../../core/configmap/storage.js';
import { csiDriverDeleteStrategy, csiDriverStrategy } from './strategy.js';
import { csiDriverTableConvertor } from './table.js';

export const csiDriverResource = { group: 'storage.k8s.io', resource: 'csidrivers' } as const;

export function newCSIDriverREST(opts: CoreStorageOptions): Promise<Store<CSIDriver>> {
  return completeResourceStore<CSIDriver>(
    {
      qualifiedResource: csiDriverResource,
      singularName: 'csidriver',
      newFunc: () => ({ apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', spec: {} }),
      newListFunc: () =>
        ({
          apiVersion: 'storage.k8s.io/v1',
          kind: 'CSIDriverList',
          metadata: {},
          items: [],
        }) satisfies CSIDriverList,
      createStrategy: csiDriverStrategy,
      updateStrategy: csiDriverStrategy,
      deleteStrategy: csiDriverDeleteStrategy,
      tableConvertor: csiDriverTableConvertor,
      trackGeneration: false,
    },
    opts,
  );
}
