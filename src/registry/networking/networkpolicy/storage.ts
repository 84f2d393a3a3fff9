// NetworkPolicy storage (pkg/registry/networking/networkpolicy/storage/storage.go):
// `/networkpolicies`, short name netpol.
import type { NetworkPolicy, NetworkPolicyList } from '../../../api/networking/v1/network-policy.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../../core/configmap/storage.js';
import { networkPolicyDeleteStrategy, networkPolicyStrategy } from './strategy.js';
import { networkPolicyTableConvertor } from './table.js';

export const networkPolicyResource = { group: 'networking.k8s.io', resource: 'networkpolicies' } as const;

export function newNetworkPolicyREST(opts: CoreStorageOptions): Promise<Store<NetworkPolicy>> {
  return completeResourceStore<NetworkPolicy>(
    {
      qualifiedResource: networkPolicyResource,
      singularName: 'networkpolicy',
      newFunc: () => ({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy' }),
      newListFunc: () =>
        ({
          apiVersion: 'networking.k8s.io/v1',
          kind: 'NetworkPolicyList',
          metadata: {},
          items: [],
        }) satisfies NetworkPolicyList,
      createStrategy: networkPolicyStrategy,
      updateStrategy: networkPolicyStrategy,
      deleteStrategy: networkPolicyDeleteStrategy,
      tableConvertor: networkPolicyTableConvertor,
      shortNames: ['netpol'],
      trackGeneration: true,
    },
    opts,
  );
}
