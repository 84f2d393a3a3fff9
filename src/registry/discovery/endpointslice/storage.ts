// EndpointSlice storage (pkg/registry/discovery/endpointslice/storage/storage.go): `/endpointslices`.
import type { EndpointSlice, EndpointSliceList } from '../../../api/discovery/v1/endpoint-slice.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../../core/configmap/storage.js';
import { endpointSliceDeleteStrategy, endpointSliceStrategy } from './strategy.js';
import { endpointSliceTableConvertor } from './table.js';

export const endpointSliceResource = { group: 'discovery.k8s.io', resource: 'endpointslices' } as const;

export function newEndpointSliceREST(opts: CoreStorageOptions): Promise<Store<EndpointSlice>> {
  return completeResourceStore<EndpointSlice>(
    {
      qualifiedResource: endpointSliceResource,
      singularName: 'endpointslice',
      newFunc: () => ({
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        addressType: '',
        endpoints: [],
      }),
      newListFunc: () =>
        ({
          apiVersion: 'discovery.k8s.io/v1',
          kind: 'EndpointSliceList',
          metadata: {},
          items: [],
        }) satisfies EndpointSliceList,
      createStrategy: endpointSliceStrategy,
      updateStrategy: endpointSliceStrategy,
      deleteStrategy: endpointSliceDeleteStrategy,
      tableConvertor: endpointSliceTableConvertor,
      trackGeneration: true,
    },
    opts,
  );
}
