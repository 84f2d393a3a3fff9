// A Job's counts and its terminal conditions (pkg/controller/job/job_controller.go):
// complete once `completions` pods succeeded (SuccessCriteriaMet, then Complete), failed once a
// failed pod matched a FailJob rule of the podFailurePolicy, more than backoffLimit pods failed or
// it ran past activeDeadlineSeconds (FailureTarget, then Failed); failures an Ignore rule matched
// are not counted.
import type { Job, JobCondition, JobStatus } from '../../../api/batch/v1/job.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { isPodActive, isPodReady } from '../simulation/controller-ref.js';
import { formatIndexes, isIndexed, succeededIndexes } from './indexed.js';
import { failJobMessageOf, matchPodFailurePolicy } from './pod-failure-policy.js';

export interface JobCounts {
  readonly all: readonly Pod[];
  readonly active: readonly Pod[];
  /** Indexed jobs: the succeeded indexes, each counted once. */
  readonly completedIndexes?: readonly number[];
  readonly succeeded: number;
  readonly failed: number;
  readonly terminating: number;
}

export function countPods(job: Job, pods: readonly Pod[]): JobCounts {
  const indexes = isIndexed(job) ? succeededIndexes(pods, completionsOf(job)) : undefined;
  return {
    all: pods,
    active: pods.filter(isPodActive),
    ...(indexes === undefined ? {} : { completedIndexes: indexes }),
    succeeded: indexes?.length ?? pods.filter((p) => p.status?.phase === 'Succeeded').length,
    failed: pods.filter((p) => p.status?.phase === 'Failed' && matchPodFailurePolicy(job, p).countFailed)
      .length,
    terminating: pods.filter(
      (p) =>
        p.metadata?.deletionTimestamp !== undefined &&
        p.status?.phase !== 'Succeeded' &&
        p.status?.phase !== 'Failed',
    ).length,
  };
}

export const completionsOf = (job: Job): number => job.spec?.completions ?? job.spec?.parallelism ?? 1;

/** The terminal condition a Job reached: its type, and the reason and message both conditions carry. */
export interface JobOutcome {
  readonly type: 'Complete' | 'Failed';
  readonly reason: string;
  readonly message: string;
}

// As syncJob: a FailJob rule first, then the backoff limit, the deadline, and the completions.
export function outcomeOf(job: Job, at: { counts: JobCounts; now: number }): JobOutcome | undefined {
  const { counts } = at;
  const failJob = failJobMessageOf(job, counts.all);
  if (failJob !== undefined) return { type: 'Failed', reason: 'PodFailurePolicy', message: failJob };
  if (counts.failed > (job.spec?.backoffLimit ?? 6))
    return {
      type: 'Failed',
      reason: 'BackoffLimitExceeded',
      message: 'Job has reached the specified backoff limit',
    };
  if (deadlineLeft(job, at.now) === 0)
    return {
      type: 'Failed',
      reason: 'DeadlineExceeded',
      message: 'Job was active longer than specified deadline',
    };
  if (counts.succeeded >= completionsOf(job))
    return {
      type: 'Complete',
      reason: 'CompletionsReached',
      message: 'Reached expected number of succeeded pods',
    };
  return undefined;
}

/**
 * Milliseconds left before a running Job passes activeDeadlineSeconds, counted from startTime
 * (reset on resume; a Job without one starts now); undefined without a deadline or while suspended.
 */
export function deadlineLeft(job: Job, now: number): number | undefined {
  const seconds = job.spec?.activeDeadlineSeconds;
  if (seconds === undefined || job.spec?.suspend === true) return undefined;
  const started = job.status?.startTime === undefined ? now : Date.parse(job.status.startTime);
  return Math.max(0, started + seconds * 1000 - now);
}

export const isFinished = (job: Job): boolean =>
  (job.status?.conditions ?? []).some(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  );

/** What a sync settled: the conditions, startTime, and whether every active pod was just deleted. */
export interface StatusAt {
  readonly conditions: JobCondition[];
  readonly startTime: string | undefined;
  readonly completionTime: string | undefined;
  readonly activeDeleted: boolean;
}

export function jobStatus(job: Job, counts: JobCounts, at: StatusAt): JobStatus {
  // As syncJob: pods it has just deleted are no longer active but terminating.
  const deleted = at.activeDeleted ? counts.active.length : 0;
  const status: JobStatus = {
    ...job.status,
    active: counts.active.length - deleted,
    succeeded: counts.succeeded,
    failed: counts.failed,
    ready: at.activeDeleted ? 0 : counts.active.filter(isPodReady).length,
    terminating: counts.terminating + deleted,
    uncountedTerminatedPods: {},
    ...(counts.completedIndexes === undefined
      ? {}
      : { completedIndexes: formatIndexes(counts.completedIndexes) }),
    conditions: at.conditions,
  };
  if (at.startTime === undefined) delete status.startTime;
  else status.startTime = at.startTime;
  if (at.completionTime !== undefined) status.completionTime = at.completionTime;
  return status;
}
