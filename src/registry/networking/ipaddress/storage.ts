// IPAddress storage (pkg/registry/networking/ipaddress/storage/storage.go): cluster-scoped
// `/ipaddresses`, short name ip.
import type { IPAddress, IPAddressList } from '../../../api/networking/v1/ip-address.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../../core/configmap/storage.js';
import { ipAddressDeleteStrategy, ipAddressStrategy } from './strategy.js';
import { ipAddressTableConvertor } from './table.js';

export const ipAddressResource = { group: 'networking.k8s.io', resource: 'ipaddresses' } as const;

export function newIPAddressREST(opts: CoreStorageOptions): Promise<Store<IPAddress>> {
  return completeResourceStore<IPAddress>(
    {
      qualifiedResource: ipAddressResource,
      singularName: 'ipaddress',
      newFunc: () => ({ apiVersion: 'networking.k8s.io/v1', kind: 'IPAddress' }),
      newListFunc: () =>
        ({
          apiVersion: 'networking.k8s.io/v1',
          kind: 'IPAddressList',
          metadata: {},
          items: [],
        }) satisfies IPAddressList,
      createStrategy: ipAddressStrategy,
      updateStrategy: ipAddressStrategy,
      deleteStrategy: ipAddressDeleteStrategy,
      tableConvertor: ipAddressTableConvertor,
      shortNames: ['ip'],
      // kube's strategy leaves metadata.generation unset.
      trackGeneration: false,
    },
    opts,
  );
}
