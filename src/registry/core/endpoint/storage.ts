// Endpoints storage (pkg/registry/core/endpoint/storage/storage.go): the generic Store under
// `/services/endpoints`, short name `ep`.
import type { Endpoints, EndpointsList } from '../../../api/core/v1/endpoints.js';
import { completeWithOptions } from '../../generic/complete.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../configmap/storage.js';
import { endpointsDeleteStrategy, endpointsStrategy } from './strategy.js';
import { endpointsTableConvertor } from './table.js';

export const endpointsResource = { group: '', resource: 'endpoints' } as const;

export function newEndpointsREST(opts: CoreStorageOptions): Promise<Store<Endpoints>> {
  return completeWithOptions<Endpoints>(
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
    {
      restOptions: opts.restOptionsGetter,
      ...(opts.objectCountMetric !== undefined ? { objectCountMetric: opts.objectCountMetric } : {}),
    },
  );
}
