// manageJob (pkg/controller/job/job_controller.go): keeps as many pods running as the Job wants,
// creating them from its template with the tracking finalizer, after the failure backoff (the
// Job's, or each index's own with backoffLimitPerIndex, failed indexes never recreated), and
// deleting the surplus (every pod of a suspended Job) with their finalizers removed first, so that
// a pod the controller itself removed is never counted as failed.
import type { Job } from '../../../api/batch/v1/job.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import type { EventRecorder } from '../event-recorder.js';
import type { Expectations } from '../replicaset/expectations.js';
import type { APIClient } from '../simulation/api-client.js';
import { isPodReady } from '../simulation/controller-ref.js';
import { keyOf } from '../simulation/informer.js';
import {
  createPod,
  createPodsExpected,
  isNamespaceTerminating,
  podFromTemplate,
} from '../simulation/pod-control.js';
import { remainingBackoff } from './backoff-record.js';
import { hasBackoffLimitPerIndex, withIndexFailureCounts } from './index-failures.js';
import { isIndexed, pendingIndexes, withIndex } from './indexed.js';
import { indexesReadyNow } from './per-index-backoff.js';
import { removeTrackingFinalizer } from './pod-finalizers.js';
import type { SyncJobContext } from './sync-context.js';
import { isPodTerminating, onlyReplaceFailedPods, withTrackingFinalizer } from './tracking.js';

const jobKind = { apiVersion: 'batch/v1', kind: 'Job' } as const;

/** MaxPodCreateDeletePerSync. */
const maxPodCreateDeletePerSync = 500;

export interface ManageDeps {
  readonly client: APIClient;
  readonly expectations: Expectations;
  readonly recorder: EventRecorder | undefined;
  readonly now: () => number;
  /** Syncs the Job again after `ms` (enqueueSyncJobWithDelay). */
  readonly syncAfter: (ms: number) => void;
}

/** What deleting pods did: how many went, how many of them were ready, and the first failure. */
export interface Deleted {
  readonly deleted: number;
  readonly ready: number;
  readonly err: { readonly cause: unknown } | undefined;
}

/**
 * The active pod count once the Job's pods are managed; ctx.terminating and ctx.ready follow the
 * pods deleted. A failed create or delete is returned after the counts are settled.
 */
export async function manageJob(
  deps: ManageDeps,
  ctx: SyncJobContext,
): Promise<{ readonly active: number; readonly err: { readonly cause: unknown } | undefined }> {
  const { job } = ctx;
  const active = ctx.activePods.length;
  const parallelism = job.spec?.parallelism ?? 1;
  const completions = job.spec?.completions;
  let toDelete: readonly Pod[] = [];
  let want = 0;
  if (job.spec?.suspend === true) toDelete = ctx.activePods;
  else {
    // Without completions, the first success lets what runs finish and starts nothing new.
    if (completions === undefined) want = ctx.succeeded > 0 ? active : parallelism;
    else want = Math.max(0, Math.min(completions - ctx.succeeded, parallelism));
    toDelete = ctx.activePods.slice(0, Math.min(Math.max(0, active - want), maxPodCreateDeletePerSync));
  }
  if (toDelete.length > 0) {
    const r = await deleteJobPods(deps, { key: ctx.key, pods: toDelete });
    ctx.terminating += r.deleted;
    ctx.ready -= r.ready;
    return { active: active - r.deleted, err: r.err };
  }
  const terminating = onlyReplaceFailedPods(job) ? ctx.terminating : 0;
  const missing = Math.min(want - terminating - active, maxPodCreateDeletePerSync);
  if (missing <= 0) return { active, err: undefined };
  // With backoffLimitPerIndex only each index's own backoff holds pods back. Waiting it out, the
  // Job keeps its active count, as kube since its fix (kubernetes#139457, in the 1.34-1.36 patch
  // releases; the 1.33 cherry-pick was closed unmerged): before it kube wrote 0 there, a status
  // that its own validation then refused beside a ready count (ready <= active).
  const backoff = hasBackoffLimitPerIndex(job) ? 0 : remainingBackoff(ctx.backoff, deps.now());
  if (backoff > 0) {
    deps.syncAfter(Math.max(backoff, 1000));
    return { active, err: undefined };
  }
  const indexes = indexesToCreate(deps, ctx, missing);
  if (indexes === undefined) return { active, err: undefined };
  let created = indexes.length;
  try {
    await createPodsExpected(
      deps.expectations,
      ctx.key,
      indexes.map((i) => async () => {
        try {
          await createJobPod(deps, { job, index: i, replaced: ctx.delayedDeletion });
        } catch (err) {
          created--;
          throw err;
        }
      }),
    );
  } catch (cause) {
    // Every create fails while the namespace goes away; that is no failure of the Job.
    if (!isNamespaceTerminating(cause)) return { active: active + created, err: { cause } };
  }
  return { active: active + created, err: undefined };
}

/**
 * The indexes to give new pods (one undefined per pod of a Job not Indexed); undefined when every
 * pending index still waits out its backoff, the Job then synced again when the first is over.
 */
function indexesToCreate(
  deps: ManageDeps,
  ctx: SyncJobContext,
  missing: number,
): readonly (number | undefined)[] | undefined {
  const { job } = ctx;
  if (!isIndexed(job)) return Array.from({ length: missing }, () => undefined);
  const taken = {
    succeeded: ctx.succeededIndexes,
    failed: ctx.failedIndexes,
    active: ctx.activePods,
    // A terminating pod's index is not handed out again before the pod is gone or failed.
    terminating: onlyReplaceFailedPods(job) ? ctx.pods.filter(isPodTerminating) : undefined,
  };
  const pending = pendingIndexes(job.spec?.completions ?? 0, taken, missing);
  if (!hasBackoffLimitPerIndex(job)) return pending;
  const { ready, wait } = indexesReadyNow(pending, { delayed: ctx.delayedDeletion, now: deps.now() });
  if (wait === 0) return ready;
  deps.syncAfter(Math.max(wait, 1000));
  return undefined;
}

async function createJobPod(
  deps: ManageDeps,
  at: { job: Job; index: number | undefined; replaced: ReadonlyMap<number, Pod> },
): Promise<void> {
  const { job, index } = at;
  const template = podFromTemplate(job, { gvk: jobKind, template: job.spec?.template });
  let pod = index === undefined ? template : withIndex(template, job, index);
  if (index !== undefined && hasBackoffLimitPerIndex(job))
    pod = withIndexFailureCounts(pod, job, at.replaced.get(index));
  (pod.metadata ??= {}).finalizers = withTrackingFinalizer(pod.metadata.finalizers);
  await createPod({ client: deps.client, recorder: deps.recorder }, { owner: job, gvk: jobKind, pod });
}

/**
 * deleteJobPods: each pod's finalizer is removed, then the pod deleted, with the deletions
 * expected; a pod already gone counts as deleted.
 */
async function deleteJobPods(deps: ManageDeps, at: { key: string; pods: readonly Pod[] }): Promise<Deleted> {
  deps.expectations.expect(at.key, 0, at.pods.map(keyOf));
  return deletePods(at.pods, async (pod) => {
    try {
      await removeTrackingFinalizer(deps.client, pod);
      await deletePod(deps.client, pod);
    } catch (err) {
      deps.expectations.deletionObserved(at.key, keyOf(pod));
      throw err;
    }
  });
}

/**
 * deleteActivePods: the pods of a Job that reached its end are deleted with their finalizers kept,
 * so that the sync counts them (as failed, when the Job failed) before letting them go.
 */
export function deleteActivePods(client: APIClient, pods: readonly Pod[]): Promise<Deleted> {
  return deletePods(pods, (pod) => deletePod(client, pod));
}

async function deletePods(pods: readonly Pod[], remove: (pod: Pod) => Promise<void>): Promise<Deleted> {
  let deleted = 0;
  let ready = 0;
  let err: { cause: unknown } | undefined;
  await Promise.all(
    pods.map(async (pod) => {
      try {
        await remove(pod);
        deleted++;
        if (isPodReady(pod)) ready++;
      } catch (cause) {
        err ??= { cause };
      }
    }),
  );
  return { deleted, ready, err };
}

async function deletePod(client: APIClient, pod: Pod): Promise<void> {
  try {
    await client.delete(
      '/v1/pods',
      { namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '' },
      {},
    );
  } catch (err) {
    if (reasonForError(err) !== 'NotFound') throw err;
  }
}
