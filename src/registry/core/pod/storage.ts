// Pod storage (pkg/registry/core/pod/storage/storage.go): pods (short name po, category all),
// pods/status, pods/binding. Stored under /registry/pods/<namespace>/<name>.
import type { Pod, PodList } from '../../../api/core/v1/pod.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import { StatusREST } from '../../generic/status-rest.js';
import type { Store } from '../../generic/store.js';
import type { CoreStorageOptions } from '../configmap/storage.js';
import { BindingREST } from './binding.js';
import { podAttrs, podFieldLabelConversion, podTriggerFuncs } from './fields.js';
import { podDeleteStrategy, podStrategiesFor } from './strategy.js';
import { FeatureGates } from '../../../machinery/featuregate/feature-gates.js';
import { podTableConvertor } from './table.js';
import { clockFor } from '../../generic/rest-options.js';

export const podResource = { group: '', resource: 'pods' } as const;

export interface PodStorage {
  readonly pods: Store<Pod>;
  readonly status: StatusREST<Pod>;
  readonly binding: BindingREST;
}

export interface PodStorageOptions extends CoreStorageOptions {
  /** The server's feature gates (kube 1.33's defaults when unset): what they turn off is dropped. */
  readonly featureGates?: FeatureGates;
}

export async function newPodREST(opts: PodStorageOptions): Promise<PodStorage> {
  const clock = clockFor(opts.restOptionsGetter, podResource);
  const strategies = podStrategiesFor(opts.featureGates ?? FeatureGates.defaults(), () => clock.now());
  const store = await completeResourceStore<Pod>(
    {
      qualifiedResource: podResource,
      singularName: 'pod',
      newFunc: () => ({ apiVersion: 'v1', kind: 'Pod' }),
      newListFunc: () => ({ apiVersion: 'v1', kind: 'PodList', metadata: {}, items: [] }) satisfies PodList,
      createStrategy: strategies.pod,
      updateStrategy: strategies.pod,
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
    status: new StatusREST(store, strategies.status),
    binding: new BindingREST(store),
  };
}
