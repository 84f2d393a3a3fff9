// Lease storage (pkg/registry/coordination/lease/storage/storage.go): the generic Store under
// `/leases`; kube gives leases no short name.
import type { Lease, LeaseList } from '../../../api/coordination/v1/lease.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../../core/configmap/storage.js';
import { leaseDeleteStrategy, leaseStrategy } from './strategy.js';
import { leaseTableConvertor } from './table.js';

export const leaseResource = { group: 'coordination.k8s.io', resource: 'leases' } as const;

export function newLeaseREST(opts: CoreStorageOptions): Promise<Store<Lease>> {
  return completeResourceStore<Lease>(
    {
      qualifiedResource: leaseResource,
      singularName: 'lease',
      newFunc: () => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' }),
      newListFunc: () =>
        ({
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'LeaseList',
          metadata: {},
          items: [],
        }) satisfies LeaseList,
      createStrategy: leaseStrategy,
      updateStrategy: leaseStrategy,
      deleteStrategy: leaseDeleteStrategy,
      tableConvertor: leaseTableConvertor,
      trackGeneration: false,
    },
    opts,
  );
}
