// ServiceAccount storage (pkg/registry/core/serviceaccount/storage/storage.go): the generic Store
// under `/serviceaccounts`, short name `sa`. The token subresource is TokenREST (token.ts).
import type { ServiceAccount, ServiceAccountList } from '../../../api/core/v1/service-account.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../configmap/storage.js';
import { serviceAccountDeleteStrategy, serviceAccountStrategy } from './strategy.js';
import { serviceAccountTableConvertor } from './table.js';

export const serviceAccountResource = { group: '', resource: 'serviceaccounts' } as const;

export function newServiceAccountREST(opts: CoreStorageOptions): Promise<Store<ServiceAccount>> {
  return completeResourceStore<ServiceAccount>(
    {
      qualifiedResource: serviceAccountResource,
      singularName: 'serviceaccount',
      newFunc: () => ({ apiVersion: 'v1', kind: 'ServiceAccount' }),
      newListFunc: () =>
        ({
          apiVersion: 'v1',
          kind: 'ServiceAccountList',
          metadata: {},
          items: [],
        }) satisfies ServiceAccountList,
      createStrategy: serviceAccountStrategy,
      updateStrategy: serviceAccountStrategy,
      deleteStrategy: serviceAccountDeleteStrategy,
      tableConvertor: serviceAccountTableConvertor,
      shortNames: ['sa'],
      trackGeneration: false,
    },
    opts,
  );
}
