// IngressClass storage (pkg/registry/networking/ingressclass/storage/storage.go): cluster-scoped
// `/ingressclasses`.
import type { IngressClass, IngressClassList } from '../../../api/networking/v1/ingress-class.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../../core/configmap/storage.js';
import { ingressClassDeleteStrategy, ingressClassStrategy } from './strategy.js';
import { ingressClassTableConvertor } from './table.js';

export const ingressClassResource = { group: 'networking.k8s.io', resource: 'ingressclasses' } as const;

export function newIngressClassREST(opts: CoreStorageOptions): Promise<Store<IngressClass>> {
  return completeResourceStore<IngressClass>(
    {
      qualifiedResource: ingressClassResource,
      singularName: 'ingressclass',
      newFunc: () => ({ apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass' }),
      newListFunc: () =>
        ({
          apiVersion: 'networking.k8s.io/v1',
          kind: 'IngressClassList',
          metadata: {},
          items: [],
        }) satisfies IngressClassList,
      createStrategy: ingressClassStrategy,
      updateStrategy: ingressClassStrategy,
      deleteStrategy: ingressClassDeleteStrategy,
      tableConvertor: ingressClassTableConvertor,
      trackGeneration: true,
    },
    opts,
  );
}
