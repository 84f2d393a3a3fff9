// ResourceQuota storage (pkg/registry/core/resourcequota/storage/storage.go): the generic Store
// under `/resourcequotas`, short name `quota`, with a `status` subresource. Admission does not
// enforce quotas and no controller computes their status here.
import type { ResourceQuota, ResourceQuotaList } from '../../../api/core/v1/resource-quota.js';
import { newStoreWithStatus } from '../../generic/resource-storage.js';
import type { StatusREST } from '../../generic/status-rest.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../configmap/storage.js';
import {
  resourceQuotaDeleteStrategy,
  resourceQuotaStatusStrategy,
  resourceQuotaStrategy,
} from './strategy.js';
import { resourceQuotaTableConvertor } from './table.js';

export const resourceQuotaResource = { group: '', resource: 'resourcequotas' } as const;

export interface ResourceQuotaStorage {
  readonly resourceQuotas: Store<ResourceQuota>;
  readonly status: StatusREST<ResourceQuota>;
}

export async function newResourceQuotaREST(opts: CoreStorageOptions): Promise<ResourceQuotaStorage> {
  const { store, status } = await newStoreWithStatus<ResourceQuota>(
    {
      qualifiedResource: resourceQuotaResource,
      singularName: 'resourcequota',
      newFunc: () => ({ apiVersion: 'v1', kind: 'ResourceQuota' }),
      newListFunc: () =>
        ({
          apiVersion: 'v1',
          kind: 'ResourceQuotaList',
          metadata: {},
          items: [],
        }) satisfies ResourceQuotaList,
      createStrategy: resourceQuotaStrategy,
      updateStrategy: resourceQuotaStrategy,
      deleteStrategy: resourceQuotaDeleteStrategy,
      tableConvertor: resourceQuotaTableConvertor,
      shortNames: ['quota'],
      // kube's quota strategy keeps no metadata.generation.
      trackGeneration: false,
    },
    opts,
    { statusStrategy: resourceQuotaStatusStrategy },
  );
  return { resourceQuotas: store, status };
}
