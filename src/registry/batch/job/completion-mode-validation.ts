// spec.completionMode and what each mode allows (the completionMode part of validateJobSpec in
// pkg/apis/batch/validation/validation.go): an Indexed Job's limits on parallelism and failed
// indexes; backoffLimitPerIndex and maxFailedIndexes only for an Indexed Job.
import type { JobSpec } from '../../../api/batch/v1/job.js';
import { FieldError, type ErrorList, type FieldPath } from '../../../machinery/validation/index.js';

const maxParallelismForIndexedJob = 100000;
const maxFailedIndexesForIndexedJob = 100000;
const completionsSoftLimit = 100000;
const parallelismLimitForHighCompletions = 10000;
const maxFailedIndexesLimitForHighCompletions = 10000;
const highCompletionsDetail = `when completions are above ${String(completionsSoftLimit)} and used with backoff limit per index`;

/** The limits of an Indexed Job: parallelism, and maxFailedIndexes against completions. */
function validateIndexedLimits(spec: JobSpec, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const { completions, parallelism, maxFailedIndexes } = spec;
  if (completions === undefined)
    errs.push(FieldError.required(path.child('completions'), 'when completion mode is Indexed'));
  if (parallelism !== undefined && parallelism > maxParallelismForIndexedJob)
    errs.push(
      FieldError.invalid(
        path.child('parallelism'),
        parallelism,
        `must be less than or equal to ${String(maxParallelismForIndexedJob)} when completion mode is Indexed`,
      ),
    );
  const maxFailedPath = path.child('maxFailedIndexes');
  if (completions !== undefined && maxFailedIndexes !== undefined && maxFailedIndexes > completions)
    errs.push(
      FieldError.invalid(maxFailedPath, maxFailedIndexes, 'must be less than or equal to completions'),
    );
  if (maxFailedIndexes !== undefined && maxFailedIndexes > maxFailedIndexesForIndexedJob)
    errs.push(
      FieldError.invalid(
        maxFailedPath,
        maxFailedIndexes,
        `must be less than or equal to ${String(maxFailedIndexesForIndexedJob)}`,
      ),
    );
  if (
    completions === undefined ||
    completions <= completionsSoftLimit ||
    spec.backoffLimitPerIndex === undefined
  )
    return errs;
  if (maxFailedIndexes === undefined)
    errs.push(
      FieldError.required(
        maxFailedPath,
        `must be specified when completions is above ${String(completionsSoftLimit)}`,
      ),
    );
  if (parallelism !== undefined && parallelism > parallelismLimitForHighCompletions)
    errs.push(
      FieldError.invalid(
        path.child('parallelism'),
        parallelism,
        `must be less than or equal to ${String(parallelismLimitForHighCompletions)} ${highCompletionsDetail}`,
      ),
    );
  if (maxFailedIndexes !== undefined && maxFailedIndexes > maxFailedIndexesLimitForHighCompletions)
    errs.push(
      FieldError.invalid(
        maxFailedPath,
        maxFailedIndexes,
        `must be less than or equal to ${String(maxFailedIndexesLimitForHighCompletions)} ${highCompletionsDetail}`,
      ),
    );
  return errs;
}

/** completionMode, and what each mode allows. */
export function validateCompletionMode(spec: JobSpec, path: FieldPath): ErrorList {
  const mode = spec.completionMode;
  if (mode === 'Indexed') return validateIndexedLimits(spec, path);
  if (mode !== undefined && mode !== 'NonIndexed')
    return [FieldError.notSupported(path.child('completionMode'), mode, ['NonIndexed', 'Indexed'])];
  const errs: ErrorList = [];
  if (spec.backoffLimitPerIndex !== undefined)
    errs.push(
      FieldError.invalid(
        path.child('backoffLimitPerIndex'),
        spec.backoffLimitPerIndex,
        'requires indexed completion mode',
      ),
    );
  if (spec.maxFailedIndexes !== undefined)
    errs.push(
      FieldError.invalid(
        path.child('maxFailedIndexes'),
        spec.maxFailedIndexes,
        'requires indexed completion mode',
      ),
    );
  return errs;
}
