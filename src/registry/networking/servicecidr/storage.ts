// ServiceCIDR storage (pkg/registry/networking/servicecidr/storage/storage.go): cluster-scoped
// `/servicecidrs` and its status subresource.
import type { ServiceCIDR, ServiceCIDRList } from '../../../api/networking/v1/service-cidr.js';
import { newStoreWithStatus } from '../../generic/resource-storage.js';
import type { StatusREST } from '../../generic/status-rest.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../../core/configmap/storage.js';
import { serviceCIDRDeleteStrategy, serviceCIDRStatusStrategy, serviceCIDRStrategy } from './strategy.js';
import { serviceCIDRTableConvertor } from './table.js';

export const serviceCIDRResource = { group: 'networking.k8s.io', resource: 'servicecidrs' } as const;

export interface ServiceCIDRStorage {
  readonly serviceCIDRs: Store<ServiceCIDR>;
  readonly status: StatusREST<ServiceCIDR>;
}

export async function newServiceCIDRREST(opts: CoreStorageOptions): Promise<ServiceCIDRStorage> {
  const { store, status } = await newStoreWithStatus<ServiceCIDR>(
    {
      qualifiedResource: serviceCIDRResource,
      singularName: 'servicecidr',
      newFunc: () => ({ apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR' }),
      newListFunc: () =>
        ({
          apiVersion: 'networking.k8s.io/v1',
          kind: 'ServiceCIDRList',
          metadata: {},
          items: [],
        }) satisfies ServiceCIDRList,
      createStrategy: serviceCIDRStrategy,
      updateStrategy: serviceCIDRStrategy,
      deleteStrategy: serviceCIDRDeleteStrategy,
      tableConvertor: serviceCIDRTableConvertor,
      // kube's strategy leaves metadata.generation unset.
      trackGeneration: false,
    },
    opts,
    { statusStrategy: serviceCIDRStatusStrategy },
  );
  return { serviceCIDRs: store, status };
}
