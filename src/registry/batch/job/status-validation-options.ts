// Which status checks a /status update gets (getStatusValidationOptions in
// pkg/registry/batch/job/strategy.go, kube 1.33 with JobManagedBy on by default). Most checks run
// only when the fields they look at change, so a Job already in violation can still be updated.
import type { Job, JobStatus } from '../../../api/batch/v1/job.js';
import {
  isConditionFalse,
  isConditionTrue,
  isJobComplete,
  isJobFailed,
  isJobFailureTarget,
  isJobFinished,
  isJobSuccessCriteriaMet,
} from './job-condition-state.js';
import { sameTime } from './job-status-times.js';

export const jobStatusChecks = [
  'rejectDecreasingSucceededCounter',
  'rejectDecreasingFailedCounter',
  'rejectDisablingTerminalCondition',
  'rejectInvalidCompletedIndexes',
  'rejectInvalidFailedIndexes',
  'rejectFailedIndexesOverlappingCompleted',
  'rejectCompletedIndexesForNonIndexedJob',
  'rejectFailedIndexesForNoBackoffLimitPerIndex',
  'rejectFailedJobWithoutFailureTarget',
  'rejectCompleteJobWithoutSuccessCriteriaMet',
  'rejectFinishedJobWithActivePods',
  'rejectFinishedJobWithoutStartTime',
  'rejectFinishedJobWithUncountedTerminatedPods',
  'rejectStartTimeUpdateForUnsuspendedJob',
  'rejectCompletionTimeBeforeStartTime',
  'rejectMutatingCompletionTime',
  'rejectCompleteJobWithoutCompletionTime',
  'rejectNotCompleteJobWithCompletionTime',
  'rejectCompleteJobWithFailedCondition',
  'rejectCompleteJobWithFailureTargetCondition',
  'rejectMoreReadyThanActivePods',
  'rejectFinishedJobWithTerminatingPods',
] as const;
export type JobStatusCheck = (typeof jobStatusChecks)[number];

/** kube's JobStatusValidationOptions (AllowForSuccessCriteriaMetInExtendedScope is always on in 1.33). */
export type JobStatusValidationOptions = Readonly<Record<JobStatusCheck, boolean>>;

/** apiequality.Semantic.DeepEqual on the uncounted UIDs: an empty list equals an unset one. */
function sameUncounted(a: JobStatus['uncountedTerminatedPods'], b: JobStatus['uncountedTerminatedPods']) {
  if (a === undefined || b === undefined) return a === b;
  const same = (x: readonly string[] = [], y: readonly string[] = []) =>
    x.length === y.length && x.every((v, i) => v === y[i]);
  return same(a.succeeded, b.succeeded) && same(a.failed, b.failed);
}

/** Whether each status field a check looks at differs between the old and the new Job. */
function changes(job: Job, old: Job) {
  const s = job.status ?? {};
  const o = old.status ?? {};
  return {
    finished: isJobFinished(old) !== isJobFinished(job),
    complete: isJobComplete(old) !== isJobComplete(job),
    failed: isJobFailed(old) !== isJobFailed(job),
    failureTarget: isJobFailureTarget(old) !== isJobFailureTarget(job),
    successCriteriaMet: isJobSuccessCriteriaMet(old) !== isJobSuccessCriteriaMet(job),
    completedIndexes: (o.completedIndexes ?? '') !== (s.completedIndexes ?? ''),
    failedIndexes: o.failedIndexes !== s.failedIndexes,
    active: (o.active ?? 0) !== (s.active ?? 0),
    startTime: !sameTime(o.startTime, s.startTime),
    completionTime: !sameTime(o.completionTime, s.completionTime),
    uncounted: !sameUncounted(o.uncountedTerminatedPods, s.uncountedTerminatedPods),
    ready: o.ready !== s.ready,
    terminating: o.terminating !== s.terminating,
  };
}

/** The options for updating `old`'s status to `job`'s. */
export function jobStatusValidationOptions(job: Job, old: Job): JobStatusValidationOptions {
  const spec = job.spec ?? {};
  const c = changes(job, old);
  const isIndexed = spec.completionMode === 'Indexed';
  const suspendedWithZeroCompletions = spec.suspend === true && spec.completions === 0;
  // A resumed Job's controller may set a new startTime (kube 1.33.6, kubernetes#134521).
  const resuming =
    isConditionTrue(old.status?.conditions, 'Suspended') &&
    isConditionFalse(job.status?.conditions, 'Suspended');
  return {
    // An Indexed Job with parallelism equal to completions may scale down its succeeded count.
    rejectDecreasingSucceededCounter: !isIndexed || spec.completions !== spec.parallelism,
    rejectDecreasingFailedCounter: true,
    rejectDisablingTerminalCondition: true,
    rejectInvalidCompletedIndexes: c.completedIndexes,
    rejectInvalidFailedIndexes: c.failedIndexes,
    rejectCompletedIndexesForNonIndexedJob: c.completedIndexes,
    rejectFailedIndexesForNoBackoffLimitPerIndex: c.failedIndexes,
    rejectFailedIndexesOverlappingCompleted: c.failedIndexes || c.completedIndexes,
    rejectFailedJobWithoutFailureTarget: c.failed || c.failedIndexes,
    rejectCompleteJobWithoutSuccessCriteriaMet: c.complete || c.successCriteriaMet,
    rejectFinishedJobWithActivePods: c.finished || c.active,
    rejectFinishedJobWithoutStartTime: (c.finished || c.startTime) && !suspendedWithZeroCompletions,
    rejectFinishedJobWithUncountedTerminatedPods: c.finished || c.uncounted,
    rejectStartTimeUpdateForUnsuspendedJob: c.startTime && !resuming,
    rejectCompletionTimeBeforeStartTime: c.startTime || c.completionTime,
    rejectMutatingCompletionTime: true,
    rejectNotCompleteJobWithCompletionTime: c.complete || c.completionTime,
    rejectCompleteJobWithoutCompletionTime: c.complete || c.completionTime,
    rejectCompleteJobWithFailedCondition: c.complete || c.failed,
    rejectCompleteJobWithFailureTargetCondition: c.complete || c.failureTarget,
    rejectMoreReadyThanActivePods: c.ready || c.active,
    rejectFinishedJobWithTerminatingPods: c.finished || c.terminating,
  };
}
