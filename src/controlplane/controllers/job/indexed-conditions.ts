// What ends an Indexed Job that nothing else ended (syncJob in pkg/controller/job/job_controller.go):
// with backoffLimitPerIndex, more failed indexes than maxFailedIndexes, or every index finished
// with some failed (FailureTarget first, as for the other failures); else a rule of its
// successPolicy met (SuccessCriteriaMet, reason SuccessPolicy, before Complete).
import type { Job } from '../../../api/batch/v1/job.js';
import { hasBackoffLimitPerIndex } from './index-failures.js';
import { isIndexed } from './indexed.js';
import type { FinishedCondition } from './job-status.js';
import { matchSuccessPolicy } from './success-policy.js';

export function indexedJobCondition(
  job: Job,
  at: { succeededIndexes: readonly number[]; failedIndexes: readonly number[] | undefined },
): FinishedCondition | undefined {
  if (!isIndexed(job)) return undefined;
  const failed = at.failedIndexes?.length ?? 0;
  if (hasBackoffLimitPerIndex(job)) {
    const max = job.spec?.maxFailedIndexes;
    if (max !== undefined && failed > max)
      return {
        type: 'FailureTarget',
        reason: 'MaxFailedIndexesExceeded',
        message: 'Job has exceeded the specified maximal number of failed indexes',
      };
    if (failed > 0 && failed + at.succeededIndexes.length >= (job.spec?.completions ?? 0))
      return { type: 'FailureTarget', reason: 'FailedIndexes', message: 'Job has failed indexes' };
  }
  const message = matchSuccessPolicy(job, at.succeededIndexes);
  if (message === undefined) return undefined;
  return { type: 'SuccessCriteriaMet', reason: 'SuccessPolicy', message };
}
