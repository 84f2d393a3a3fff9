// ReplicaSet storage (pkg/registry/apps/replicaset/storage/storage.go): replicasets (short name rs,
// category all), replicasets/status and replicasets/scale. No replicaset controller runs here.
import { templateStrategies } from '../../core/pod/disabled-fields.js';
import type { ReplicaSet, ReplicaSetList } from '../../../api/apps/v1/replica-set.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import { StatusREST } from '../../generic/status-rest.js';
import type { Storage } from '../../rest/capabilities.js';
import type { WorkloadStorageOptions } from '../deployment/storage.js';
import { workloadScale } from '../workload/scale.js';
import {
  replicaSetAttrs,
  replicaSetDeleteStrategy,
  replicaSetFieldLabelConversion,
  replicaSetStatusStrategy,
  replicaSetStrategy,
} from './strategy.js';
import { replicaSetTableConvertor } from './table.js';

export const replicaSetResource = { group: 'apps', resource: 'replicasets' } as const;

/** replicasets, replicasets/status and replicasets/scale. */
export async function replicaSetStorageMap(opts: WorkloadStorageOptions): Promise<Record<string, Storage>> {
  const store = await completeResourceStore<ReplicaSet>(
    {
      qualifiedResource: replicaSetResource,
      singularName: 'replicaset',
      newFunc: () => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet' }),
      newListFunc: () =>
        ({ apiVersion: 'apps/v1', kind: 'ReplicaSetList', metadata: {}, items: [] }) satisfies ReplicaSetList,
      ...templateStrategies(replicaSetStrategy, opts.featureGates, (o) => o.spec?.template),
      deleteStrategy: replicaSetDeleteStrategy,
      defaultGarbageCollectionPolicy: 'DeleteDependents',
      fieldLabelConversion: replicaSetFieldLabelConversion,
      tableConvertor: replicaSetTableConvertor,
      shortNames: ['rs'],
      categories: ['all'],
      trackGeneration: true,
    },
    opts,
    { attrFunc: replicaSetAttrs },
  );
  return {
    replicasets: store,
    'replicasets/status': new StatusREST(store, replicaSetStatusStrategy),
    'replicasets/scale': workloadScale(store),
  };
}
