// CSINode storage (pkg/registry/storage/csinode/storage/storage.go): cluster-scoped `/csinodes`.
import type { CSINode, CSINodeList } from '../../../api/storage/v1/csi-node.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../../core/configmap/storage.js';
import { csiNodeDeleteStrategy, csiNodeStrategy } from './strategy.js';
import { csiNodeTableConvertor } from './table.js';

export const csiNodeResource = { group: 'storage.k8s.io', resource: 'csinodes' } as const;

export function newCSINodeREST(opts: CoreStorageOptions): Promise<Store<CSINode>> {
  return completeResourceStore<CSINode>(
    {
      qualifiedResource: csiNodeResource,
      singularName: 'csinode',
      newFunc: () => ({ apiVersion: 'storage.k8s.io/v1', kind: 'CSINode', spec: { drivers: [] } }),
      newListFunc: () =>
        ({
          apiVersion: 'storage.k8s.io/v1',
          kind: 'CSINodeList',
          metadata: {},
          items: [],
        }) satisfies CSINodeList,
      createStrategy: csiNodeStrategy,
      updateStrategy: csiNodeStrategy,
      deleteStrategy: csiNodeDeleteStrategy,
      tableConvertor: csiNodeTableConvertor,
      trackGeneration: false,
    },
    opts,
  );
}
