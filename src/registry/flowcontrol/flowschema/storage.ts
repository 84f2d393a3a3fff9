// FlowSchema storage (pkg/registry/flowcontrol/flowschema/storage/storage.go): cluster-scoped
// `/flowschemas` and its status subresource.
import type { FlowSchema, FlowSchemaList } from '../../../api/flowcontrol/v1/flow-schema.js';
import {
  newStoreWithStatus,
  type ResourceStorageOptions,
  type StoreWithStatus,
} from '../../generic/resource-storage.js';
import { flowSchemaDeleteStrategy, flowSchemaStatusStrategy, flowSchemaStrategy } from './strategy.js';
import { flowSchemaTableConvertor } from './table.js';

export const flowSchemaResource = { group: 'flowcontrol.apiserver.k8s.io', resource: 'flowschemas' } as const;

export function newFlowSchemaREST(opts: ResourceStorageOptions): Promise<StoreWithStatus<FlowSchema>> {
  return newStoreWithStatus<FlowSchema>(
    {
      qualifiedResource: flowSchemaResource,
      singularName: 'flowschema',
      newFunc: () => ({
        apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
        kind: 'FlowSchema',
        spec: { priorityLevelConfiguration: { name: '' } },
      }),
      newListFunc: () =>
        ({
          apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
          kind: 'FlowSchemaList',
          metadata: {},
          items: [],
        }) satisfies FlowSchemaList,
      createStrategy: flowSchemaStrategy,
      updateStrategy: flowSchemaStrategy,
      deleteStrategy: flowSchemaDeleteStrategy,
      tableConvertor: flowSchemaTableConvertor,
    },
    opts,
    { statusStrategy: flowSchemaStatusStrategy },
  );
}
