// PriorityLevelConfiguration storage
// (pkg/registry/flowcontrol/prioritylevelconfiguration/storage/storage.go): cluster-scoped
// `/prioritylevelconfigurations` and its status subresource.
import type {
  PriorityLevelConfiguration,
  PriorityLevelConfigurationList,
} from '../../../api/flowcontrol/v1/priority-level-configuration.js';
import {
  newStoreWithStatus,
  type ResourceStorageOptions,
  type StoreWithStatus,
} from '../../generic/resource-storage.js';
import {
  priorityLevelDeleteStrategy,
  priorityLevelStatusStrategy,
  priorityLevelStrategy,
} from './strategy.js';
import { priorityLevelTableConvertor } from './table.js';

export const priorityLevelResource = {
  group: 'flowcontrol.apiserver.k8s.io',
  resource: 'prioritylevelconfigurations',
} as const;

export function newPriorityLevelConfigurationREST(
  opts: ResourceStorageOptions,
): Promise<StoreWithStatus<PriorityLevelConfiguration>> {
  return newStoreWithStatus<PriorityLevelConfiguration>(
    {
      qualifiedResource: priorityLevelResource,
      singularName: 'prioritylevelconfiguration',
      newFunc: () => ({
        apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
        kind: 'PriorityLevelConfiguration',
        spec: { type: '' },
      }),
      newListFunc: () =>
        ({
          apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
          kind: 'PriorityLevelConfigurationList',
          metadata: {},
          items: [],
        }) satisfies PriorityLevelConfigurationList,
      createStrategy: priorityLevelStrategy,
      updateStrategy: priorityLevelStrategy,
      deleteStrategy: priorityLevelDeleteStrategy,
      tableConvertor: priorityLevelTableConvertor,
    },
    opts,
    { statusStrategy: priorityLevelStatusStrategy },
  );
}
