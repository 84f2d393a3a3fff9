// Pod storage (pkg/registry/core/pod/storage/storage.go): pods (short name po, category all),
// pods/status, pods/binding. Stored under /registry/pods/<namespace>/<name>.
import type { Pod, PodList } from '../../../api/core/v1/pod.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import { StatusREST } from '../../generic/status-rest.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../configmap/storage.js';
import { BindingREST } from './binding.js';
import { podAttrs, podFieldLabelConversion, podTriggerFuncs } from './fields.js';
import { podDeleteStrategy, podStatusStrategy, podStrategy } from './strategy.js';
import { podTableConvertor } from './table.js';

export const podResource = { group: '', resource: 'pods' } as const;

export interface PodStorage {
  readonly pods: Store<Pod>;
  readonly status: StatusREST<Pod>;
  readonly binding: BindingREST;
}

export async function newPodREST(opts: CoreStorageOptions): Promise<PodStorage> {
  const store = await completeResourceStore<Pod>(
    {
      qualifiedResource: podResource,
      singularName: 'pod',
      newFunc: () => ({ apiVersion: 'v1', kind: 'Pod' }),
      newListFunc: () => ({ apiVersion: 'v1', kind: 'PodList', metadata: {}, items: [] }) satisfies PodList,
      createStrategy: podStrategy,
      updateStrategy: podStrategy,
      deleteStrategy: podDeleteStrategy,
      returnDeletedObject: true,
      tableConvertor: podTableConvertor,
      fieldLabelConversion: podFieldLabelConversion,
      shortNames: ['po'],
      categories: ['all'],
      trackGeneration: true,
    },
    opts,
    { attrFunc: podAttrs, triggerFuncs: podTriggerFuncs },
  );
  return {
    pods: store,
    status: new StatusREST(store, podStatusStrategy),
    binding: new BindingREST(store),
  };
}
