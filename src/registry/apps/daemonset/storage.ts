// DaemonSet storage (pkg/registry/apps/daemonset/storage/storage.go): daemonsets (short name ds,
// category all) and daemonsets/status. No daemonset controller runs here.
import { templateStrategies } from '../../core/pod/disabled-fields.js';
import type { DaemonSet, DaemonSetList } from '../../../api/apps/v1/daemon-set.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import { StatusREST } from '../../generic/status-rest.js';
import type { Storage } from '../../rest/capabilities.js';
import type { WorkloadStorageOptions } from '../deployment/storage.js';
import { daemonSetDeleteStrategy, daemonSetStatusStrategy, daemonSetStrategy } from './strategy.js';
import { daemonSetTableConvertor } from './table.js';

export const daemonSetResource = { group: 'apps', resource: 'daemonsets' } as const;

/** daemonsets and daemonsets/status. */
export async function daemonSetStorageMap(opts: WorkloadStorageOptions): Promise<Record<string, Storage>> {
  const store = await completeResourceStore<DaemonSet>(
    {
      qualifiedResource: daemonSetResource,
      singularName: 'daemonset',
      newFunc: () => ({ apiVersion: 'apps/v1', kind: 'DaemonSet' }),
      newListFunc: () =>
        ({ apiVersion: 'apps/v1', kind: 'DaemonSetList', metadata: {}, items: [] }) satisfies DaemonSetList,
      ...templateStrategies(daemonSetStrategy, opts.featureGates, (o) => o.spec?.template),
      deleteStrategy: daemonSetDeleteStrategy,
      defaultGarbageCollectionPolicy: 'DeleteDependents',
      tableConvertor: daemonSetTableConvertor,
      shortNames: ['ds'],
      categories: ['all'],
      trackGeneration: true,
    },
    opts,
  );
  return { daemonsets: store, 'daemonsets/status': new StatusREST(store, daemonSetStatusStrategy) };
}
