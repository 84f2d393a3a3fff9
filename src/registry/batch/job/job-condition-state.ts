// Which conditions a Job's status holds (IsJobFinished, IsJobComplete, IsJobFailed,
// IsConditionTrue and their kin in pkg/apis/batch/validation/validation.go).
import type { Job, JobCondition } from '../../../api/batch/v1/job.js';

function hasCondition(list: readonly JobCondition[] | undefined, type: string, status: string): boolean {
  return (list ?? []).some((c) => c.type === type && c.status === status);
}

/** IsConditionTrue. */
export function isConditionTrue(list: readonly JobCondition[] | undefined, type: string): boolean {
  return hasCondition(list, type, 'True');
}

/** IsConditionFalse. */
export function isConditionFalse(list: readonly JobCondition[] | undefined, type: string): boolean {
  return hasCondition(list, type, 'False');
}

export const isJobComplete = (job: Job): boolean => isConditionTrue(job.status?.conditions, 'Complete');
export const isJobFailed = (job: Job): boolean => isConditionTrue(job.status?.conditions, 'Failed');
export const isJobFailureTarget = (job: Job): boolean =>
  isConditionTrue(job.status?.conditions, 'FailureTarget');
export const isJobSuccessCriteriaMet = (job: Job): boolean =>
  isConditionTrue(job.status?.conditions, 'SuccessCriteriaMet');

/** IsJobFinished: Complete or Failed is True. */
export const isJobFinished = (job: Job): boolean => isJobComplete(job) || isJobFailed(job);
