// CronJob validation (ValidateCronJobCreate, ValidateCronJobUpdate, validateCronJobSpec,
// validateScheduleFormat, validateTimeZone and ValidateJobTemplateSpec in
// pkg/apis/batch/validation/validation.go) and its v1 defaults (SetDefaults_CronJob).
import type { CronJob, CronJobSpec, JobTemplateSpec } from '../../../api/batch/v1/cron-job.js';
import {
  FieldError,
  FieldPath,
  validateNonnegativeField,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { validateCoreObjectMetaUpdate } from '../../core/namespace/finalizer-names.js';
import { setPodTemplateSpecDefaults } from '../../core/podtemplate/defaults.js';
import { setPodFailurePolicyDefaults } from '../job/defaults.js';
import {
  nonnegativeFields,
  specPath,
  validateImmutableField,
  validateNamespacedMeta,
} from '../../apps/workload/validation.js';
import { validateJobSpecCommon } from '../job/validation.js';
import { cronScheduleError } from './cron-schedule.js';
import { loadLocationError } from './time-zone.js';

/** Fills the defaults in place: Allow, not suspended, history 3 and 1, and the pod defaults. */
export function setCronJobDefaults(cj: CronJob): void {
  const spec = (cj.spec ??= {});
  if ((spec.concurrencyPolicy ?? '') === '') spec.concurrencyPolicy = 'Allow';
  spec.suspend ??= false;
  spec.successfulJobsHistoryLimit ??= 3;
  spec.failedJobsHistoryLimit ??= 1;
  const jobTemplate = (spec.jobTemplate ??= {});
  // SetDefaults_Job is the Job's own; a job template gets only the defaulters of what it holds.
  const jobSpec = (jobTemplate.spec ??= {});
  setPodFailurePolicyDefaults(jobSpec);
  setPodTemplateSpecDefaults((jobSpec.template ??= {}));
}

const concurrencyPolicies = ['Allow', 'Forbid', 'Replace'];
const validTimeZoneCharacters = /^[A-Za-z.\-_0-9+]{1,14}$/;
/** The cronjob controller appends an 11 character suffix to job names, which stop at 63. */
const maxCronJobNameLength = 52;

function validateScheduleFormat(spec: CronJobSpec, allowTZInSchedule: boolean, path: FieldPath): ErrorList {
  const schedule = spec.schedule ?? '';
  const errs: ErrorList = [];
  const err = cronScheduleError(schedule);
  if (err !== undefined) errs.push(FieldError.invalid(path, schedule, err));
  const hasTZ = schedule.includes('TZ');
  if (allowTZInSchedule && hasTZ && spec.timeZone !== undefined)
    errs.push(
      FieldError.invalid(path, schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'),
    );
  else if (!allowTZInSchedule && hasTZ)
    errs.push(
      FieldError.invalid(path, schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'),
    );
  return errs;
}

/** validateTimeZone. */
export function validateTimeZone(timeZone: string | undefined, path: FieldPath): ErrorList {
  if (timeZone === undefined) return [];
  if (timeZone === '')
    return [FieldError.invalid(path, timeZone, 'timeZone must be nil or non-empty string')];
  for (const part of timeZone.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !validTimeZoneCharacters.test(part))
      return [FieldError.invalid(path, timeZone, `unknown time zone ${timeZone}`)];
  }
  const errs: ErrorList = [];
  if (timeZone.toLowerCase() === 'local')
    errs.push(
      FieldError.invalid(
        path,
        timeZone,
        'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
      ),
    );
  const loadError = loadLocationError(timeZone);
  if (loadError !== undefined) errs.push(FieldError.invalid(path, timeZone, loadError));
  return errs;
}

/** ValidateJobTemplateSpec: the job spec, with a selector the controller generates. */
function validateJobTemplateSpec(template: JobTemplateSpec, path: FieldPath): ErrorList {
  const spec = template.spec ?? {};
  const specPathOf = path.child('spec');
  const errs = validateJobSpecCommon(spec, specPathOf);
  if (spec.selector !== undefined)
    errs.push(
      FieldError.invalid(specPathOf.child('selector'), spec.selector, '`selector` will be auto-generated'),
    );
  if (spec.manualSelector === true)
    errs.push(
      FieldError.notSupported(specPathOf.child('manualSelector'), spec.manualSelector, ['nil', 'false']),
    );
  return errs;
}

/** validateCronJobSpec; `old` on update (the time zone is checked again only when it changed). */
function validateCronJobSpec(spec: CronJobSpec, old: CronJobSpec | undefined, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  if ((spec.schedule ?? '') === '') errs.push(FieldError.required(path.child('schedule')));
  else
    errs.push(
      ...validateScheduleFormat(spec, old?.schedule?.includes('TZ') ?? false, path.child('schedule')),
    );
  if (spec.startingDeadlineSeconds !== undefined)
    errs.push(
      ...validateNonnegativeField(spec.startingDeadlineSeconds, path.child('startingDeadlineSeconds')),
    );
  if (old === undefined || old.timeZone !== spec.timeZone)
    errs.push(...validateTimeZone(spec.timeZone, path.child('timeZone')));
  const policy = spec.concurrencyPolicy ?? '';
  if (policy === '') errs.push(FieldError.required(path.child('concurrencyPolicy')));
  else if (!concurrencyPolicies.includes(policy))
    errs.push(FieldError.notSupported(path.child('concurrencyPolicy'), policy, concurrencyPolicies));
  errs.push(...validateJobTemplateSpec(spec.jobTemplate ?? {}, path.child('jobTemplate')));
  errs.push(
    ...nonnegativeFields(
      {
        successfulJobsHistoryLimit: spec.successfulJobsHistoryLimit,
        failedJobsHistoryLimit: spec.failedJobsHistoryLimit,
      },
      path,
    ),
  );
  return errs;
}

/** ValidateCronJobCreate: a DNS subdomain name of at most 52 characters, and the spec. */
export function validateCronJob(cj: CronJob): ErrorList {
  const errs = validateNamespacedMeta(cj.metadata);
  errs.push(...validateCronJobSpec(cj.spec ?? {}, undefined, specPath));
  const name = cj.metadata?.name ?? '';
  if (name.length > maxCronJobNameLength)
    errs.push(
      FieldError.invalid(
        FieldPath.of('metadata', 'name'),
        name,
        `must be no more than ${maxCronJobNameLength} characters`,
      ),
    );
  return errs;
}

/** ValidateCronJobUpdate: the spec against the old one; the job template's selector stays as it was. */
export function validateCronJobUpdate(cj: CronJob, old: CronJob): ErrorList {
  const spec = cj.spec ?? {};
  const prior = old.spec ?? {};
  return [
    ...validateCoreObjectMetaUpdate(cj.metadata ?? {}, old.metadata ?? {}),
    ...validateCronJobSpec(spec, prior, specPath),
    ...validateImmutableField(
      spec.jobTemplate?.spec?.selector,
      prior.jobTemplate?.spec?.selector,
      specPath.child('jobTemplate', 'spec', 'selector'),
    ),
  ];
}

export function validateCronJobStatusUpdate(cj: CronJob, old: CronJob): ErrorList {
  return validateCoreObjectMetaUpdate(cj.metadata ?? {}, old.metadata ?? {});
}
