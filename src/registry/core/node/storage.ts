// Node storage (pkg/registry/core/node/storage/storage.go): nodes (short name no, cluster-scoped,
// stored under /registry/minions/<name>) and nodes/status. nodes/proxy is served elsewhere.
import type { Node, NodeList } from '../../../api/core/v1/node.js';
import { newStoreWithStatus } from '../../generic/resource-storage.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../configmap/storage.js';
import { nodeAttrs, nodeFieldLabelConversion, nodeTriggerFuncs } from './fields.js';
import type { StatusREST } from '../../generic/status-rest.js';
import { nodeDeleteStrategy, nodeStatusStrategy, nodeStrategy } from './strategy.js';
import { nodeTableConvertor } from './table.js';

export const nodeResource = { group: '', resource: 'nodes' } as const;

export interface NodeStorage {
  readonly nodes: Store<Node>;
  readonly status: StatusREST<Node>;
}

export async function newNodeREST(opts: CoreStorageOptions): Promise<NodeStorage> {
  const { store, status } = await newStoreWithStatus<Node>(
    {
      qualifiedResource: nodeResource,
      singularName: 'node',
      newFunc: () => ({ apiVersion: 'v1', kind: 'Node' }),
      newListFunc: () => ({ apiVersion: 'v1', kind: 'NodeList', metadata: {}, items: [] }) satisfies NodeList,
      createStrategy: nodeStrategy,
      updateStrategy: nodeStrategy,
      deleteStrategy: nodeDeleteStrategy,
      tableConvertor: nodeTableConvertor,
      fieldLabelConversion: nodeFieldLabelConversion,
      shortNames: ['no'],
      trackGeneration: false,
    },
    opts,
    { attrFunc: nodeAttrs, triggerFuncs: nodeTriggerFuncs, statusStrategy: nodeStatusStrategy },
  );
  return { nodes: store, status };
}
