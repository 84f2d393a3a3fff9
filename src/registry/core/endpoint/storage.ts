// Endpoints storage (pkg/registry/core/endpoint/storage/storage.go): the generic Store under
// `/services/endpoints`, short name `ep`.
import type { Endpoints, EndpointsList } from '../../../api/core/v1/endpoints.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../configmap/storage.js';
import { endpointsDeleteStrategy, endpointsStrategy } from './strategy.js';
import { endpointsTableConvertor } from './table.js';

export const endpointsResource = { group: '', resource: 'endpoints' } as const;

export function newEndpointsREST(opts: CoreStorageOptions): Promise<Store<Endpoints>> {
  return completeResourceStore<Endpoints>(
    {
      qualifiedResource: endpointsResource,
      singularName: 'endpoints',
      newFunc: () => ({ apiVersion: 'v1', kind: 'Endpoints' }),
      newListFunc: () =>
        ({
          apiVersion: 'v1',
          kind: 'EndpointsList',
          metadata: {},
          items: [],
        }) satisfies EndpointsList,
      createStrategy: endpointsStrategy,
      updateStrategy: endpointsStrategy,
      deleteStrategy: endpointsDeleteStrategy,
      tableConvertor: endpointsTableConvertor,
      shortNames: ['ep'],
      trackGeneration: false,
    },
    opts,
  );
}
