// StatefulSet storage (pkg/registry/apps/statefulset/storage/storage.go): statefulsets (short name
// sts, category all), statefulsets/status and statefulsets/scale. No statefulset controller runs here.
import { templateStrategies } from '../../core/pod/disabled-fields.js';
import type { StatefulSet, StatefulSetList } from '../../../api/apps/v1/stateful-set.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import { StatusREST } from '../../generic/status-rest.js';
import type { Storage } from '../../rest/capabilities.js';
import type { WorkloadStorageOptions } from '../deployment/storage.js';
import { workloadScale } from '../workload/scale.js';
import { statefulSetDeleteStrategy, statefulSetStatusStrategy, statefulSetStrategy } from './strategy.js';
import { statefulSetTableConvertor } from './table.js';

export const statefulSetResource = { group: 'apps', resource: 'statefulsets' } as const;

/** statefulsets, statefulsets/status and statefulsets/scale. */
export async function statefulSetStorageMap(opts: WorkloadStorageOptions): Promise<Record<string, Storage>> {
  const store = await completeResourceStore<StatefulSet>(
    {
      qualifiedResource: statefulSetResource,
      singularName: 'statefulset',
      newFunc: () => ({ apiVersion: 'apps/v1', kind: 'StatefulSet' }),
      newListFunc: () =>
        ({
          apiVersion: 'apps/v1',
          kind: 'StatefulSetList',
          metadata: {},
          items: [],
        }) satisfies StatefulSetList,
      ...templateStrategies(statefulSetStrategy, opts.featureGates, (o) => o.spec?.template),
      deleteStrategy: statefulSetDeleteStrategy,
      defaultGarbageCollectionPolicy: 'DeleteDependents',
      tableConvertor: statefulSetTableConvertor,
      shortNames: ['sts'],
      categories: ['all'],
      trackGeneration: true,
    },
    opts,
  );
  return {
    statefulsets: store,
    'statefulsets/status': new StatusREST(store, statefulSetStatusStrategy),
    'statefulsets/scale': workloadScale(store),
  };
}
