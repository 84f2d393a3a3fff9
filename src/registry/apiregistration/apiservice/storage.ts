// APIService storage (k8s.io/kube-aggregator/pkg/registry/apiservice/etcd/etcd.go): cluster-scoped
// `/apiservices` under `/registry/apiregistration.k8s.io/apiservices`, with its status subresource.
import type { APIService, APIServiceList } from '../../../api/apiregistration/v1/api-service.js';
import {
  newStoreWithStatus,
  type ResourceStorageOptions,
  type StoreWithStatus,
} from '../../generic/resource-storage.js';
import { apiServiceDeleteStrategy, apiServiceStatusStrategy, apiServiceStrategy } from './strategy.js';
import { apiServiceTableConvertor } from './table.js';

export const apiServiceResource = { group: 'apiregistration.k8s.io', resource: 'apiservices' } as const;

export function newAPIServiceREST(opts: ResourceStorageOptions): Promise<StoreWithStatus<APIService>> {
  return newStoreWithStatus<APIService>(
    {
      qualifiedResource: apiServiceResource,
      singularName: 'apiservice',
      newFunc: () => ({
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        spec: { service: null, groupPriorityMinimum: 0, versionPriority: 0 },
      }),
      newListFunc: () =>
        ({
          apiVersion: 'apiregistration.k8s.io/v1',
          kind: 'APIServiceList',
          metadata: {},
          items: [],
        }) satisfies APIServiceList,
      createStrategy: apiServiceStrategy,
      updateStrategy: apiServiceStrategy,
      deleteStrategy: apiServiceDeleteStrategy,
      tableConvertor: apiServiceTableConvertor,
      categories: ['api-extensions'],
      trackGeneration: false,
    },
    opts,
    { statusStrategy: apiServiceStatusStrategy },
  );
}
