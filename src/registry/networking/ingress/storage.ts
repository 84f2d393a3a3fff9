// Ingress storage (pkg/registry/networking/ingress/storage/storage.go): `/ingresses` (short name ing),
// stored under the `ingress` prefix as kube does, and its status subresource.
import type { Ingress, IngressList } from '../../../api/networking/v1/ingress.js';
import { newStoreWithStatus } from '../../generic/resource-storage.js';
import type { StatusREST } from '../../generic/status-rest.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../../core/configmap/storage.js';
import { ingressDeleteStrategy, ingressStatusStrategy, ingressStrategy } from './strategy.js';
import { ingressTableConvertor } from './table.js';

export const ingressResource = { group: 'networking.k8s.io', resource: 'ingresses' } as const;

export interface IngressStorage {
  readonly ingresses: Store<Ingress>;
  readonly status: StatusREST<Ingress>;
}

export async function newIngressREST(opts: CoreStorageOptions): Promise<IngressStorage> {
  const { store, status } = await newStoreWithStatus<Ingress>(
    {
      qualifiedResource: ingressResource,
      singularName: 'ingress',
      newFunc: () => ({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress' }),
      newListFunc: () =>
        ({
          apiVersion: 'networking.k8s.io/v1',
          kind: 'IngressList',
          metadata: {},
          items: [],
        }) satisfies IngressList,
      createStrategy: ingressStrategy,
      updateStrategy: ingressStrategy,
      deleteStrategy: ingressDeleteStrategy,
      tableConvertor: ingressTableConvertor,
      shortNames: ['ing'],
      trackGeneration: true,
    },
    opts,
    { statusStrategy: ingressStatusStrategy },
  );
  return { ingresses: store, status };
}
