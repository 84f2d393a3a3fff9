// A Job's counts and its terminal conditions (pkg/controller/job/job_controller.go):
// complete once `completions` pods succeeded (SuccessCriteriaMet, then Complete), failed once more
// than backoffLimit pods failed (FailureTarget, then Failed).
import type { Job, JobCondition, JobStatus } from '../../../api/batch/v1/job.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { isPodActive, isPodReady } from '../simulation/controller-ref.js';
import { formatIndexes, isIndexed, succeededIndexes } from './indexed.js';

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
    failed: pods.filter((p) => p.status?.phase === 'Failed').length,
    terminating: pods.filter(
      (p) =>
        p.metadata?.deletionTimestamp !== undefined &&
        p.status?.phase !== 'Succeeded' &&
        p.status?.phase !== 'Failed',
    ).length,
  };
}

export const completionsOf = (job: Job): number => job.spec?.completions ?? job.spec?.parallelism ?? 1;

export type JobOutcome = 'Complete' | 'Failed' | undefined;

export function outcomeOf(job: Job, counts: JobCounts): JobOutcome {
  if (counts.failed > (job.spec?.backoffLimit ?? 6)) return 'Failed';
  if (counts.succeeded >= completionsOf(job)) return 'Complete';
  return undefined;
}

export const isFinished = (job: Job): boolean =>
  (job.status?.conditions ?? []).some(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  );

function terminalConditions(outcome: JobOutcome, now: string): JobCondition[] {
  const cond = (type: string, reason: string, message: string): JobCondition => ({
    type,
    status: 'True',
    lastProbeTime: now,
    lastTransitionTime: now,
    reason,
    message,
  });
  switch (outcome) {
    case 'Complete':
      return [
        cond('SuccessCriteriaMet', 'CompletionsReached', 'Reached expected number of succeeded pods'),
        cond('Complete', 'CompletionsReached', 'Reached expected number of succeeded pods'),
      ];
    case 'Failed':
      return [
        cond('FailureTarget', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'),
        cond('Failed', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'),
      ];
    case undefined:
      return [];
  }
}

export function jobStatus(job: Job, counts: JobCounts, at: { outcome: JobOutcome; now: string }): JobStatus {
  const finishing = at.outcome !== undefined;
  return {
    ...job.status,
    startTime: job.status?.startTime ?? at.now,
    active: finishing ? 0 : counts.active.length,
    succeeded: counts.succeeded,
    failed: counts.failed,
    ready: finishing ? 0 : counts.active.filter(isPodReady).length,
    terminating: counts.terminating,
    uncountedTerminatedPods: {},
    ...(counts.completedIndexes === undefined
      ? {}
      : { completedIndexes: formatIndexes(counts.completedIndexes) }),
    ...(at.outcome === 'Complete' ? { completionTime: job.status?.completionTime ?? at.now } : {}),
    conditions: [...(job.status?.conditions ?? []), ...terminalConditions(at.outcome, at.now)],
  };
}
