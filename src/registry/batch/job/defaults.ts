// The batch/v1 Job defaults (SetDefaults_Job in pkg/apis/batch/v1/defaults.go) and the pod defaults
// of its template, and the selector kube's job strategy generates (generateSelector in
// pkg/registry/batch/job/strategy.go).
import type { Job, JobSpec } from '../../../api/batch/v1/job.js';
import { setPodTemplateSpecDefaults } from '../../core/podtemplate/defaults.js';

export const legacyJobNameLabel = 'job-name';
export const jobNameLabel = 'batch.kubernetes.io/job-name';
export const legacyControllerUidLabel = 'controller-uid';
export const controllerUidLabel = 'batch.kubernetes.io/controller-uid';

const maxInt32 = 2147483647;

/** The defaults of a job spec, shared with CronJob's job template for the pod part only. */
export function setJobSpecDefaults(spec: JobSpec): void {
  if (spec.completions === undefined && spec.parallelism === undefined) spec.completions = 1;
  spec.parallelism ??= 1;
  spec.backoffLimit ??= spec.backoffLimitPerIndex !== undefined ? maxInt32 : 6;
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  setPodFailurePolicyDefaults(spec);
  spec.podReplacementPolicy ??= spec.podFailurePolicy !== undefined ? 'Failed' : 'TerminatingOrFailed';
  spec.manualSelector ??= false;
  setPodTemplateSpecDefaults((spec.template ??= {}));
}

/** SetDefaults_PodFailurePolicyOnPodConditionsPattern: a pattern without a status matches True. */
export function setPodFailurePolicyDefaults(spec: JobSpec): void {
  for (const rule of spec.podFailurePolicy?.rules ?? [])
    for (const pattern of rule.onPodConditions ?? [])
      if ((pattern.status ?? '') === '') pattern.status = 'True';
}

/** A job without labels takes its template's labels. */
export function defaultJobLabels(job: Job): void {
  const labels = job.spec?.template?.metadata?.labels;
  const meta = (job.metadata ??= {});
  if (labels !== undefined && Object.keys(meta.labels ?? {}).length === 0) meta.labels = { ...labels };
}

export function setJobDefaults(job: Job): void {
  setJobSpecDefaults((job.spec ??= {}));
  defaultJobLabels(job);
}

/**
 * generateSelector: the template gets the job-name and controller-uid labels (both spellings) unless
 * the user set them, and the selector matches the prefixed controller-uid label.
 */
export function generateSelector(job: Job): void {
  const spec = (job.spec ??= {});
  const template = (spec.template ??= {});
  const templateMeta = (template.metadata ??= {});
  const labels = (templateMeta.labels ??= {});
  const name = job.metadata?.name ?? '';
  const uid = job.metadata?.uid ?? '';
  for (const key of [legacyJobNameLabel, jobNameLabel]) labels[key] ??= name;
  for (const key of [legacyControllerUidLabel, controllerUidLabel]) labels[key] ??= uid;
  const selector = (spec.selector ??= {});
  const matchLabels = (selector.matchLabels ??= {});
  matchLabels[controllerUidLabel] ??= uid;
}
