// A Job's status against the status it replaces (ValidateJobStatusUpdate in
// pkg/apis/batch/validation/validation.go, kube 1.33), the options from the strategy's
// getStatusValidationOptions.
import type { Job } from '../../../api/batch/v1/job.js';
import { FieldError, FieldPath, omitValue, type ErrorList } from '../../../machinery/validation/index.js';
import { isConditionTrue, isJobComplete, isJobSuccessCriteriaMet } from './job-condition-state.js';
import { sameTime, timeBadValue } from './job-status-times.js';
import { jobStatusValidationOptions, type JobStatusValidationOptions } from './status-validation-options.js';
import { validateJobStatus } from './status-validation.js';

const statusPath = FieldPath.of('status');
const conditionsPath = statusPath.child('conditions');
const terminalTypes = ['Failed', 'Complete', 'FailureTarget'] as const;

/** What may not change between the old status and the new one. */
function validateTransitions(job: Job, old: Job, opts: JobStatusValidationOptions): ErrorList {
  const errs: ErrorList = [];
  const s = job.status ?? {};
  const o = old.status ?? {};
  if (opts.rejectDisablingTerminalCondition)
    for (const type of terminalTypes)
      if (isConditionTrue(o.conditions, type) && !isConditionTrue(s.conditions, type))
        errs.push(
          FieldError.invalid(conditionsPath, omitValue, `cannot disable the terminal ${type}=True condition`),
        );
  const failed = s.failed ?? 0;
  if (opts.rejectDecreasingFailedCounter && failed < (o.failed ?? 0))
    errs.push(FieldError.invalid(statusPath.child('failed'), failed, 'cannot decrease the failed counter'));
  const succeeded = s.succeeded ?? 0;
  if (opts.rejectDecreasingSucceededCounter && succeeded < (o.succeeded ?? 0))
    errs.push(
      FieldError.invalid(statusPath.child('succeeded'), succeeded, 'cannot decrease the succeeded counter'),
    );
  // Clearing completionTime is left to the Complete checks of validateJobStatus.
  if (
    opts.rejectMutatingCompletionTime &&
    s.completionTime !== undefined &&
    o.completionTime !== undefined &&
    !sameTime(s.completionTime, o.completionTime)
  )
    errs.push(
      FieldError.invalid(
        statusPath.child('completionTime'),
        timeBadValue(s.completionTime),
        'completionTime cannot be mutated',
      ),
    );
  // Setting a first startTime on a running Job is what the controller does.
  if (
    opts.rejectStartTimeUpdateForUnsuspendedJob &&
    o.startTime !== undefined &&
    !sameTime(o.startTime, s.startTime) &&
    job.spec?.suspend !== true
  )
    errs.push(
      FieldError.required(statusPath.child('startTime'), 'startTime cannot be removed for unsuspended job'),
    );
  if (isJobSuccessCriteriaMet(old) && !isJobSuccessCriteriaMet(job))
    errs.push(
      FieldError.invalid(conditionsPath, omitValue, 'cannot disable the SuccessCriteriaMet=True condition'),
    );
  if (isJobComplete(old) && !isJobSuccessCriteriaMet(old) && isJobSuccessCriteriaMet(job))
    errs.push(
      FieldError.invalid(
        conditionsPath,
        omitValue,
        'cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions',
      ),
    );
  return errs;
}

/** ValidateJobStatusUpdate, with the options kube 1.33's status strategy picks for this update. */
export function validateJobStatusTransition(job: Job, old: Job): ErrorList {
  const opts = jobStatusValidationOptions(job, old);
  return [...validateJobStatus(job, statusPath, opts), ...validateTransitions(job, old, opts)];
}
