// What ends a Job (syncJob in pkg/controller/job/job_controller.go): a failed pod matching a FailJob
// rule of the podFailurePolicy, more failures than backoffLimit, or running past
// activeDeadlineSeconds fail it (FailureTarget first, Failed once its pods are gone); enough
// successes complete it (SuccessCriteriaMet first, then Complete). An interim condition an earlier
// sync wrote stands. What else ends an Indexed Job is in indexed-conditions.ts.
import type { Job } from '../../../api/batch/v1/job.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { isJobFinished } from '../../../registry/batch/job/job-condition-state.js';
import { failJobMessageOf } from './pod-failure-policy.js';

export const interimTypes = { success: 'SuccessCriteriaMet', failure: 'FailureTarget' } as const;

/** A condition the sync settled on, before its timestamps: interim or terminal. */
export interface FinishedCondition {
  readonly type: 'SuccessCriteriaMet' | 'Complete' | 'FailureTarget' | 'Failed';
  readonly reason: string;
  readonly message: string;
}

/** newSuccessCondition, delayed as JobManagedBy and JobPodReplacementPolicy have it in 1.33. */
export const successCondition: FinishedCondition = {
  type: 'SuccessCriteriaMet',
  reason: 'CompletionsReached',
  message: 'Reached expected number of succeeded pods',
};

const conditionTrue = (job: Job, type: string) =>
  job.status?.conditions?.find((c) => c.type === type && c.status === 'True');

/**
 * The condition a Job has reached before pods are managed: SuccessCriteriaMet already written, a
 * written FailureTarget (its Failed now due), or a new FailureTarget; undefined while it runs on.
 */
export function failureCondition(
  job: Job,
  at: { pods: readonly Pod[]; failed: number; now: number },
): FinishedCondition | undefined {
  const met = conditionTrue(job, interimTypes.success);
  if (met !== undefined)
    return { type: 'SuccessCriteriaMet', reason: met.reason ?? '', message: met.message ?? '' };
  const target = conditionTrue(job, interimTypes.failure);
  if (target !== undefined)
    return { type: 'Failed', reason: target.reason ?? '', message: target.message ?? '' };
  const failJob = failJobMessageOf(job, at.pods);
  if (failJob !== undefined) return { type: 'FailureTarget', reason: 'PodFailurePolicy', message: failJob };
  if (at.failed > (job.spec?.backoffLimit ?? 6) || pastBackoffLimitOnFailure(job, at.pods))
    return {
      type: 'FailureTarget',
      reason: 'BackoffLimitExceeded',
      message: 'Job has reached the specified backoff limit',
    };
  if (deadlineLeft(job, at.now) === 0)
    return {
      type: 'FailureTarget',
      reason: 'DeadlineExceeded',
      message: 'Job was active longer than specified deadline',
    };
  return undefined;
}

/**
 * A Job without completions is done once one pod succeeded and none runs; one with completions
 * once that many succeeded and none runs.
 */
export function isComplete(job: Job, at: { succeeded: number; active: number }): boolean {
  const completions = job.spec?.completions;
  if (at.active !== 0) return false;
  return completions === undefined ? at.succeeded > 0 : at.succeeded >= completions;
}

/** With restartPolicy OnFailure: the container restarts of running pods reached backoffLimit. */
function pastBackoffLimitOnFailure(job: Job, pods: readonly Pod[]): boolean {
  if (job.spec?.template?.spec?.restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const p of pods) {
    if (p.status?.phase !== 'Running' && p.status?.phase !== 'Pending') continue;
    for (const s of [...(p.status.initContainerStatuses ?? []), ...(p.status.containerStatuses ?? [])])
      restarts += s.restartCount;
  }
  const limit = job.spec.backoffLimit ?? 6;
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

/**
 * Milliseconds left before a running Job passes activeDeadlineSeconds, counted from startTime
 * (reset on resume); undefined without a deadline, a startTime, or while suspended.
 */
export function deadlineLeft(job: Job, now: number): number | undefined {
  const seconds = job.spec?.activeDeadlineSeconds;
  const start = job.status?.startTime;
  if (seconds === undefined || start === undefined || job.spec?.suspend === true) return undefined;
  return Math.max(0, Date.parse(start) + seconds * 1000 - now);
}

/** Complete or Failed is True (the registry's IsJobFinished, which status validation uses too). */
export const isFinished = isJobFinished;

/** managedByExternalController: a Job another controller manages (spec.managedBy) is left alone. */
export const managedElsewhere = (job: Job): boolean =>
  job.spec?.managedBy !== undefined && job.spec.managedBy !== 'kubernetes.io/job-controller';
