// What one sync of a Job works from (syncJobCtx in pkg/controller/job/job_controller.go): the Job's
// pods, and the counts the status gets once their ends are tracked. succeeded and failed are the
// status counters, plus the uncounted UIDs, plus the pods newly found finished. With
// backoffLimitPerIndex, the failed indexes and the failed pods whose removal waits for a
// replacement too.
import type { Job } from '../../../api/batch/v1/job.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { EventNote } from '../event-recorder.js';
import { isPodActive, isPodReady } from '../simulation/controller-ref.js';
import type { BackoffRecord, BackoffStore } from './backoff-record.js';
import { failedIndexesOf, hasBackoffLimitPerIndex } from './index-failures.js';
import { isIndexed, succeededIndexes } from './indexed.js';
import type { FinishedCondition } from './job-status.js';
import { podsWithDelayedDeletion } from './per-index-backoff.js';
import { matchPodFailurePolicy } from './pod-failure-policy.js';
import {
  hasTrackingFinalizer,
  isPodTerminating,
  newFinishedPods,
  uncountedOf,
  type UncountedSets,
} from './tracking.js';

export interface SyncJobContext {
  readonly key: string;
  /** The working copy: its status is what gets written. */
  job: Job;
  readonly pods: readonly Pod[];
  readonly activePods: readonly Pod[];
  finished: FinishedCondition | undefined;
  succeeded: number;
  failed: number;
  /** Indexed Jobs: the indexes the status held, and those with the new successes. */
  readonly previousIndexes: readonly number[];
  succeededIndexes: readonly number[];
  /** With backoffLimitPerIndex: the failed indexes (status.failedIndexes), else undefined. */
  readonly failedIndexes: readonly number[] | undefined;
  /** With backoffLimitPerIndex: per index, the failed pod its next pod replaces. */
  readonly delayedDeletion: ReadonlyMap<number, Pod>;
  readonly backoff: BackoffRecord;
  readonly expectedRemovals: ReadonlySet<string>;
  readonly uncounted: UncountedSets;
  terminating: number;
  ready: number;
  /** Suspended and Resumed, recorded once the status is written. */
  readonly events: EventNote[];
}

/** The context of a sync; `job` is a copy the caller may change. */
export function newSyncContext(
  job: Job,
  at: {
    key: string;
    pods: readonly Pod[];
    expectedRemovals: ReadonlySet<string>;
    backoffs: BackoffStore;
  },
): SyncJobContext {
  const { pods, expectedRemovals } = at;
  const status = (job.status ??= {});
  status.uncountedTerminatedPods ??= {};
  const uncounted = uncountedOf(job);
  const activePods = pods.filter(isPodActive);
  const fresh = newFinishedPods(job, { pods, uncounted, expectedRemovals });
  const countedFailures = fresh.failed.filter((p) => matchPodFailurePolicy(job, p).countFailed);
  const indexes = isIndexed(job)
    ? succeededIndexes(job, { pods, counted: hasTrackingFinalizer })
    : { previous: [], all: [] };
  const perIndex = isIndexed(job) && hasBackoffLimitPerIndex(job);
  const failedIndexes = perIndex ? failedIndexesOf(job, pods) : undefined;
  const delayedDeletion =
    failedIndexes === undefined
      ? new Map<number, Pod>()
      : podsWithDelayedDeletion(job, {
          pods,
          activePods,
          succeededIndexes: indexes.all,
          failedIndexes,
          expectedRemovals,
        });
  return {
    key: at.key,
    job,
    pods,
    activePods,
    finished: undefined,
    succeeded: isIndexed(job)
      ? indexes.all.length
      : (status.succeeded ?? 0) + fresh.succeeded.length + uncounted.succeeded.size,
    failed: (status.failed ?? 0) + countedFailures.length + uncounted.failed.size,
    previousIndexes: indexes.previous,
    succeededIndexes: indexes.all,
    failedIndexes,
    delayedDeletion,
    backoff: at.backoffs.next(at.key, fresh),
    expectedRemovals,
    uncounted,
    terminating: pods.filter(isPodTerminating).length,
    ready: activePods.filter(isPodReady).length,
    events: [],
  };
}
