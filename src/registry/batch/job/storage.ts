// Job storage (pkg/registry/batch/job/storage/storage.go): jobs (category all) and jobs/status.
// batch/v1 orphans a job's pods by default, so a delete that names no propagation policy gets kube's
// warning. No job controller runs here: a Job creates no pods.
import { templateStrategies } from '../../core/pod/disabled-fields.js';
import type { Job, JobList } from '../../../api/batch/v1/job.js';
import type { KubeList, KubeObject } from '../../../api/meta.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import { StatusREST } from '../../generic/status-rest.js';
import { Store } from '../../generic/store.js';
import type { Storage, ValidateObjectFunc } from '../../rest/capabilities.js';
import type { RequestContext } from '../../rest/context.js';
import type { DeleteOptions, ListOptions } from '../../rest/options.js';
import type { WorkloadStorageOptions } from '../../apps/deployment/storage.js';
import {
  jobAttrs,
  jobDeleteStrategy,
  jobFieldLabelConversion,
  jobStatusStrategy,
  jobStrategy,
} from './strategy.js';
import { jobTableConvertor } from './table.js';

export const jobResource = { group: 'batch', resource: 'jobs' } as const;

export const deleteOptionWarning =
  'child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning';

/** The jobs store, warning on deletes that leave the pods' fate to the default. */
export class JobREST extends Store<Job> {
  override delete(
    ctx: RequestContext,
    name: string,
    opts: { options: DeleteOptions; validate?: ValidateObjectFunc },
  ): Promise<{ object: KubeObject; deleted: boolean }> {
    if (opts.options.propagationPolicy === undefined && opts.options.orphanDependents === undefined)
      ctx.addWarning(deleteOptionWarning);
    return super.delete(ctx, name, opts);
  }

  override deleteCollection(
    ctx: RequestContext,
    opts: { options: DeleteOptions; listOptions: ListOptions; validate?: ValidateObjectFunc },
  ): Promise<KubeList<Job>> {
    if (opts.options.propagationPolicy === undefined && opts.options.orphanDependents === undefined)
      ctx.addWarning(deleteOptionWarning);
    return super.deleteCollection(ctx, opts);
  }
}

export async function newJobREST(
  opts: WorkloadStorageOptions,
): Promise<{ jobs: JobREST; status: StatusREST<Job> }> {
  const store = await completeResourceStore<Job>(
    {
      qualifiedResource: jobResource,
      singularName: 'job',
      newFunc: () => ({ apiVersion: 'batch/v1', kind: 'Job' }),
      newListFunc: () =>
        ({ apiVersion: 'batch/v1', kind: 'JobList', metadata: {}, items: [] }) satisfies JobList,
      ...templateStrategies(jobStrategy, opts.featureGates, (o) => o.spec?.template),
      deleteStrategy: jobDeleteStrategy,
      defaultGarbageCollectionPolicy: 'OrphanDependents',
      fieldLabelConversion: jobFieldLabelConversion,
      tableConvertor: jobTableConvertor,
      categories: ['all'],
      trackGeneration: true,
    },
    opts,
    { attrFunc: jobAttrs },
  );
  return { jobs: new JobREST(store.core), status: new StatusREST(store, jobStatusStrategy) };
}

/** jobs and jobs/status. */
export async function jobStorageMap(opts: WorkloadStorageOptions): Promise<Record<string, Storage>> {
  const s = await newJobREST(opts);
  return { jobs: s.jobs, 'jobs/status': s.status };
}
