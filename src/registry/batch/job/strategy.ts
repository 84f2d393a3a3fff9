// Job policy (pkg/registry/batch/job/strategy.go): create resets the status and, unless the user
// picks the selector, generates it from the job's uid; spec changes bump the generation; /status
// keeps the spec. Field selector: status.successful.
import type { Job } from '../../../api/batch/v1/job.js';
import type { TransformFunc } from '../../../machinery/fields/index.js';
import { mergeFieldsSets, objectMetaFieldsSet } from '../../generic/predicate.js';
import type { AttrFunc, CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { defaultJobLabels, generateSelector, setJobDefaults } from './defaults.js';
import { validateJob, validateJobStatusUpdate, validateJobUpdate } from './validation.js';
import { FieldPath } from '../../../machinery/validation/index.js';
import { workloadNameWarnings } from '../../core/pod/warnings.js';
import { warningsForJobSpec } from './warnings.js';

const specPath = FieldPath.of('spec');

export const jobStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaultDecoded: setJobDefaults,
  prepareForCreate: (_ctx, job) => {
    setJobDefaults(job);
    job.status = {};
  },
  validate: (_ctx, job) => {
    // As kube's Validate does: the uid is known by now.
    if (job.spec?.manualSelector !== true) generateSelector(job);
    defaultJobLabels(job);
    return validateJob(job);
  },
  warningsOnCreate: (_ctx, job) =>
    workloadNameWarnings(job.metadata?.name).concat(warningsForJobSpec(specPath, job.spec)),
  prepareForUpdate: (_ctx, job, old) => {
    setJobDefaults(job);
    job.status = old.status ?? {};
  },
  validateUpdate: (_ctx, job, old) => validateJobUpdate(job, old),
  warningsOnUpdate: (_ctx, job, old) =>
    job.metadata?.generation !== old.metadata?.generation ? warningsForJobSpec(specPath, job.spec) : [],
} satisfies CreateStrategy<Job> & UpdateStrategy<Job>;

export const jobStatusStrategy = {
  ...jobStrategy,
  prepareForUpdate: (_ctx, job, old) => {
    job.spec = old.spec ?? {};
  },
  validateUpdate: (_ctx, job, old) => validateJobStatusUpdate(job, old),
  warningsOnUpdate: () => [],
} satisfies UpdateStrategy<Job>;

export const jobDeleteStrategy = {} satisfies DeleteStrategy<Job>;

/** JobToSelectableFields: the object meta fields and status.successful. */
export const jobAttrs: AttrFunc<Job> = (job) => ({
  labels: job.metadata?.labels ?? {},
  fields: mergeFieldsSets(objectMetaFieldsSet(job.metadata, true), {
    'status.successful': String(job.status?.succeeded ?? 0),
  }),
});

/** The batch/v1 Job field label conversion. */
export const jobFieldLabelConversion: TransformFunc = (field, value) =>
  field === 'metadata.name' || field === 'metadata.namespace' || field === 'status.successful'
    ? { ok: true, field, value }
    : { ok: false, message: `field label "${field}" not supported for batchv1.Job` };
