// CronJob storage (pkg/registry/batch/cronjob/storage/storage.go): cronjobs (short name cj,
// category all) and cronjobs/status. No cronjob controller runs here: no Job is ever started.
import { templateStrategies } from '../../core/pod/disabled-fields.js';
import type { CronJob, CronJobList } from '../../../api/batch/v1/cron-job.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import { StatusREST } from '../../generic/status-rest.js';
import type { Storage } from '../../rest/capabilities.js';
import type { WorkloadStorageOptions } from '../../apps/deployment/storage.js';
import { cronJobDeleteStrategy, cronJobStatusStrategy, cronJobStrategy } from './strategy.js';
import { cronJobTableConvertor } from './table.js';

export const cronJobResource = { group: 'batch', resource: 'cronjobs' } as const;

/** cronjobs and cronjobs/status. */
export async function cronJobStorageMap(opts: WorkloadStorageOptions): Promise<Record<string, Storage>> {
  const store = await completeResourceStore<CronJob>(
    {
      qualifiedResource: cronJobResource,
      singularName: 'cronjob',
      newFunc: () => ({ apiVersion: 'batch/v1', kind: 'CronJob' }),
      newListFunc: () =>
        ({ apiVersion: 'batch/v1', kind: 'CronJobList', metadata: {}, items: [] }) satisfies CronJobList,
      ...templateStrategies(cronJobStrategy, opts.featureGates, (o) => o.spec?.jobTemplate?.spec?.template),
      deleteStrategy: cronJobDeleteStrategy,
      defaultGarbageCollectionPolicy: 'DeleteDependents',
      tableConvertor: cronJobTableConvertor,
      shortNames: ['cj'],
      categories: ['all'],
      trackGeneration: true,
    },
    opts,
  );
  return { cronjobs: store, 'cronjobs/status': new StatusREST(store, cronJobStatusStrategy) };
}
