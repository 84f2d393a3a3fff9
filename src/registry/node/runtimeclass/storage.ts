// RuntimeClass storage (pkg/registry/node/runtimeclass/storage/storage.go): cluster-scoped
// `/runtimeclasses`.
import type { RuntimeClass, RuntimeClassList } from '../../../api/node/v1/runtime-class.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../../core/configmap/storage.js';
import { runtimeClassDeleteStrategy, runtimeClassStrategy } from './strategy.js';
import { runtimeClassTableConvertor } from './table.js';

export const runtimeClassResource = { group: 'node.k8s.io', resource: 'runtimeclasses' } as const;

export function newRuntimeClassREST(opts: CoreStorageOptions): Promise<Store<RuntimeClass>> {
  return completeResourceStore<RuntimeClass>(
    {
      qualifiedResource: runtimeClassResource,
      singularName: 'runtimeclass',
      newFunc: () => ({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', handler: '' }),
      newListFunc: () =>
        ({
          apiVersion: 'node.k8s.io/v1',
          kind: 'RuntimeClassList',
          metadata: {},
          items: [],
        }) satisfies RuntimeClassList,
      createStrategy: runtimeClassStrategy,
      updateStrategy: runtimeClassStrategy,
      deleteStrategy: runtimeClassDeleteStrategy,
      tableConvertor: runtimeClassTableConvertor,
      trackGeneration: false,
    },
    opts,
  );
}
