// A Job's status on its own (validateJobStatus in pkg/apis/batch/validation/validation.go, kube
// 1.33): the counters, the uncounted UIDs, and the checks its options switch on, in kube's order.
import type { Job, JobStatus } from '../../../api/batch/v1/job.js';
import {
  FieldError,
  omitValue,
  type ErrorList,
  type FieldPath,
} from '../../../machinery/validation/index.js';
import { nonnegativeFields } from '../../apps/workload/validation.js';
import { failedIndexesOverlap, validateIndexesFormat } from './index-intervals.js';
import {
  isJobComplete,
  isJobFailed,
  isJobFailureTarget,
  isJobFinished,
  isJobSuccessCriteriaMet,
} from './job-condition-state.js';
import { isBefore, timeBadValue } from './job-status-times.js';
import type { JobStatusValidationOptions } from './status-validation-options.js';

type Check = (job: Job, status: JobStatus, path: FieldPath) => FieldError | undefined;

const conditionsError = (path: FieldPath, detail: string) =>
  FieldError.invalid(path.child('conditions'), omitValue, detail);

/** Empty or repeated UIDs among the uncounted pods, succeeded and failed together. */
function validateUncounted(status: JobStatus, path: FieldPath): ErrorList {
  const uncounted = status.uncountedTerminatedPods;
  if (uncounted === undefined) return [];
  const errs: ErrorList = [];
  const seen = new Set<string>();
  for (const kind of ['succeeded', 'failed'] as const) {
    (uncounted[kind] ?? []).forEach((uid, i) => {
      const p = path.child('uncountedTerminatedPods', kind).index(i);
      if (uid === '') errs.push(FieldError.invalid(p, uid, 'must not be empty'));
      else if (seen.has(uid)) errs.push(FieldError.duplicate(p, uid));
      else seen.add(uid);
    });
  }
  return errs;
}

/** The internal UncountedTerminatedPods as field.Error renders it: JSON with Go's field names. */
function uncountedBadValue(u: NonNullable<JobStatus['uncountedTerminatedPods']>) {
  return { Succeeded: u.succeeded ?? null, Failed: u.failed ?? null };
}

/** A completedIndexes or failedIndexes list that does not parse within completions. */
function indexesFormatError(
  path: FieldPath,
  field: 'completedIndexes' | 'failedIndexes',
  text: string,
): (completions: number) => FieldError | undefined {
  return (completions) => {
    const parsed = validateIndexesFormat(text, completions);
    if (parsed.ok) return undefined;
    return FieldError.invalid(path.child(field), text, `error parsing ${field}: ${parsed.message}`);
  };
}

/** The checks an option switches on, in kube's order. */
const optionalChecks: readonly [keyof JobStatusValidationOptions, Check][] = [
  [
    'rejectCompleteJobWithFailedCondition',
    (job, _s, path) =>
      isJobComplete(job) && isJobFailed(job)
        ? conditionsError(path, 'cannot set Complete=True and Failed=true conditions')
        : undefined,
  ],
  [
    'rejectCompleteJobWithFailureTargetCondition',
    (job, _s, path) =>
      isJobComplete(job) && isJobFailureTarget(job)
        ? conditionsError(path, 'cannot set Complete=True and FailureTarget=true conditions')
        : undefined,
  ],
  [
    'rejectNotCompleteJobWithCompletionTime',
    (job, s, path) =>
      s.completionTime !== undefined && !isJobComplete(job)
        ? FieldError.invalid(
            path.child('completionTime'),
            timeBadValue(s.completionTime),
            'cannot set completionTime when there is no Complete=True condition',
          )
        : undefined,
  ],
  [
    'rejectCompleteJobWithoutCompletionTime',
    (job, s, path) =>
      s.completionTime === undefined && isJobComplete(job)
        ? FieldError.required(path.child('completionTime'), 'completionTime is required for Complete jobs')
        : undefined,
  ],
  [
    'rejectCompletionTimeBeforeStartTime',
    (_job, s, path) =>
      s.startTime !== undefined && s.completionTime !== undefined && isBefore(s.completionTime, s.startTime)
        ? FieldError.invalid(
            path.child('completionTime'),
            timeBadValue(s.completionTime),
            'completionTime cannot be set before startTime',
          )
        : undefined,
  ],
  [
    'rejectFailedJobWithoutFailureTarget',
    (job, _s, path) =>
      isJobFailed(job) && !isJobFailureTarget(job)
        ? conditionsError(path, 'cannot set Failed=True condition without the FailureTarget=true condition')
        : undefined,
  ],
  [
    'rejectCompleteJobWithoutSuccessCriteriaMet',
    (job, _s, path) =>
      isJobComplete(job) && !isJobSuccessCriteriaMet(job)
        ? conditionsError(
            path,
            'cannot set Complete=True condition without the SuccessCriteriaMet=true condition',
          )
        : undefined,
  ],
  [
    'rejectFinishedJobWithActivePods',
    (job, s, path) =>
      (s.active ?? 0) > 0 && isJobFinished(job)
        ? FieldError.invalid(path.child('active'), s.active, 'active>0 is invalid for finished job')
        : undefined,
  ],
  [
    'rejectFinishedJobWithoutStartTime',
    (job, s, path) =>
      s.startTime === undefined && isJobFinished(job)
        ? FieldError.required(path.child('startTime'), 'startTime is required for finished job')
        : undefined,
  ],
  [
    'rejectFinishedJobWithUncountedTerminatedPods',
    (job, s, path) => {
      const u = s.uncountedTerminatedPods;
      if (u === undefined || !isJobFinished(job)) return undefined;
      if ((u.failed ?? []).length + (u.succeeded ?? []).length === 0) return undefined;
      return FieldError.invalid(
        path.child('uncountedTerminatedPods'),
        uncountedBadValue(u),
        'uncountedTerminatedPods needs to be empty for finished job',
      );
    },
  ],
  [
    'rejectInvalidCompletedIndexes',
    (job, s, path) => {
      const completions = job.spec?.completions;
      if (completions === undefined) return undefined;
      return indexesFormatError(path, 'completedIndexes', s.completedIndexes ?? '')(completions);
    },
  ],
  [
    'rejectInvalidFailedIndexes',
    (job, s, path) => {
      const completions = job.spec?.completions;
      if (completions === undefined || job.spec?.backoffLimitPerIndex === undefined) return undefined;
      if (s.failedIndexes === undefined) return undefined;
      return indexesFormatError(path, 'failedIndexes', s.failedIndexes)(completions);
    },
  ],
  [
    'rejectCompletedIndexesForNonIndexedJob',
    (job, s, path) =>
      (s.completedIndexes ?? '') !== '' && job.spec?.completionMode !== 'Indexed'
        ? FieldError.invalid(
            path.child('completedIndexes'),
            s.completedIndexes,
            'cannot set non-empty completedIndexes when non-indexed completion mode',
          )
        : undefined,
  ],
  [
    // Also keeps failedIndexes off NonIndexed Jobs, which have no backoffLimitPerIndex.
    'rejectFailedIndexesForNoBackoffLimitPerIndex',
    (job, s, path) =>
      job.spec?.backoffLimitPerIndex === undefined && s.failedIndexes !== undefined
        ? FieldError.invalid(
            path.child('failedIndexes'),
            s.failedIndexes,
            'cannot set non-null failedIndexes when backoffLimitPerIndex is null',
          )
        : undefined,
  ],
  [
    'rejectFailedIndexesOverlappingCompleted',
    (job, s, path) => {
      const completions = job.spec?.completions;
      if (completions === undefined || s.failedIndexes === undefined) return undefined;
      const overlap = failedIndexesOverlap(s.completedIndexes ?? '', s.failedIndexes, completions);
      return overlap === undefined
        ? undefined
        : FieldError.invalid(path.child('failedIndexes'), s.failedIndexes, overlap);
    },
  ],
  [
    'rejectFinishedJobWithTerminatingPods',
    (job, s, path) =>
      (s.terminating ?? 0) > 0 && isJobFinished(job)
        ? FieldError.invalid(
            path.child('terminating'),
            s.terminating,
            'terminating>0 is invalid for finished job',
          )
        : undefined,
  ],
  [
    'rejectMoreReadyThanActivePods',
    (_job, s, path) =>
      s.ready !== undefined && s.ready > (s.active ?? 0)
        ? FieldError.invalid(path.child('ready'), s.ready, 'cannot set more ready pods than active')
        : undefined,
  ],
];

/** The SuccessCriteriaMet checks every status update gets. */
function validateSuccessCriteriaMet(job: Job, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const met = isJobSuccessCriteriaMet(job);
  if (met && isJobFailed(job))
    errs.push(conditionsError(path, 'cannot set SuccessCriteriaMet=True and Failed=true conditions'));
  if (met && isJobFailureTarget(job))
    errs.push(conditionsError(path, 'cannot set SuccessCriteriaMet=True and FailureTarget=true conditions'));
  if (job.spec?.successPolicy !== undefined && !met && isJobComplete(job))
    errs.push(
      conditionsError(
        path,
        'cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True',
      ),
    );
  return errs;
}

/** validateJobStatus. */
export function validateJobStatus(job: Job, path: FieldPath, opts: JobStatusValidationOptions): ErrorList {
  const status = job.status ?? {};
  const errs = nonnegativeFields(
    {
      active: status.active,
      succeeded: status.succeeded,
      failed: status.failed,
      ready: status.ready,
      terminating: status.terminating,
    },
    path,
  );
  errs.push(...validateUncounted(status, path));
  for (const [option, check] of optionalChecks) {
    const err = opts[option] ? check(job, status, path) : undefined;
    if (err !== undefined) errs.push(err);
  }
  errs.push(...validateSuccessCriteriaMet(job, path));
  return errs;
}
