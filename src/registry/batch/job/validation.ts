// Job validation (ValidateJob, ValidateJobSpec, ValidateJobUpdate, ValidateJobUpdateStatus in
// pkg/apis/batch/validation/validation.go): the common subset, with the policies and the status
// checks in their modules.
import type { PodSpec } from '../../../api/core/v1/pod.js';
import type { Job, JobSpec } from '../../../api/batch/v1/job.js';
import { labelSelectorAsSelector, validateLabelSelector } from '../../../machinery/labels/index.js';
import {
  byteLength,
  FieldError,
  FieldPath,
  isDNS1123Label,
  isDomainPrefixedPath,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { validateCoreObjectMetaUpdate } from '../../core/namespace/finalizer-names.js';
import { validatePodTemplateSpec } from '../../core/podtemplate/validation.js';
import {
  nonnegativeFields,
  selectorMismatchMsg,
  specPath,
  validateImmutableField,
  validateNamespacedMeta,
} from '../../apps/workload/validation.js';
import {
  controllerUidLabel,
  jobNameLabel,
  legacyControllerUidLabel,
  legacyJobNameLabel,
} from './defaults.js';
import { validateCompletionMode } from './completion-mode-validation.js';
import { validatePodFailurePolicy } from './pod-failure-policy-validation.js';
import { validateJobSuccessPolicy } from './success-policy-validation.js';
import { validateJobStatusTransition } from './status-update-validation.js';

const maxManagedByLength = 63;

/** managedBy: a domain-prefixed path of at most 63 characters. */
function validateManagedBy(managedBy: string | undefined, path: FieldPath): ErrorList {
  if (managedBy === undefined) return [];
  const errs = isDomainPrefixedPath(path, managedBy);
  if (byteLength(managedBy) > maxManagedByLength) errs.push(FieldError.tooLong(path, maxManagedByLength));
  return errs;
}

/** validatePodReplacementPolicy: only Failed goes with a podFailurePolicy. */
function validatePodReplacementPolicy(spec: JobSpec, path: FieldPath): ErrorList {
  const policy = spec.podReplacementPolicy;
  if (policy === undefined) return [];
  const supported = spec.podFailurePolicy !== undefined ? ['Failed'] : ['Failed', 'TerminatingOrFailed'];
  return supported.includes(policy) ? [] : [FieldError.notSupported(path, policy, supported)];
}

/** validateJobSpec: what a Job and a CronJob's job template share. */
export function validateJobSpecCommon(spec: JobSpec, path: FieldPath): ErrorList {
  const errs = nonnegativeFields(
    {
      parallelism: spec.parallelism,
      completions: spec.completions,
      activeDeadlineSeconds: spec.activeDeadlineSeconds,
      backoffLimit: spec.backoffLimit,
      ttlSecondsAfterFinished: spec.ttlSecondsAfterFinished,
      backoffLimitPerIndex: spec.backoffLimitPerIndex,
      maxFailedIndexes: spec.maxFailedIndexes,
    },
    path,
  );
  if (spec.maxFailedIndexes !== undefined && spec.backoffLimitPerIndex === undefined)
    errs.push(FieldError.required(path.child('backoffLimitPerIndex'), 'when maxFailedIndexes is specified'));
  errs.push(
    ...validateManagedBy(spec.managedBy, path.child('managedBy')),
    ...validateCompletionMode(spec, path),
  );
  if (spec.podFailurePolicy !== undefined)
    errs.push(...validatePodFailurePolicy(spec, path.child('podFailurePolicy')));
  errs.push(
    ...validateJobSuccessPolicy(spec, path.child('successPolicy')),
    ...validatePodReplacementPolicy(spec, path.child('podReplacementPolicy')),
  );
  const templatePath = path.child('template');
  errs.push(...validatePodTemplateSpec(spec.template ?? {}, templatePath));
  const restart = spec.template?.spec?.restartPolicy ?? '';
  const restartPath = templatePath.child('spec', 'restartPolicy');
  if (restart === 'Always' || restart === '')
    errs.push(FieldError.required(restartPath, 'valid values: "OnFailure", "Never"'));
  else if (restart !== 'OnFailure' && restart !== 'Never')
    errs.push(FieldError.notSupported(restartPath, restart, ['OnFailure', 'Never']));
  else if (spec.podFailurePolicy !== undefined && restart !== 'Never')
    errs.push(
      FieldError.invalid(
        restartPath,
        restart,
        'only "Never" is supported when podFailurePolicy is specified',
      ),
    );
  return errs;
}

/** ValidateJobSpec: the common checks, a selector, and the selector matching the template. */
export function validateJobSpec(spec: JobSpec, path: FieldPath): ErrorList {
  const errs = validateJobSpecCommon(spec, path);
  if (spec.selector === undefined) errs.push(FieldError.required(path.child('selector')));
  else errs.push(...validateLabelSelector(spec.selector, path.child('selector')));
  const converted = labelSelectorAsSelector(spec.selector);
  const labels = spec.template?.metadata?.labels;
  if (converted.ok && !converted.selector.matches(labels ?? {}))
    errs.push(
      FieldError.invalid(path.child('template', 'metadata', 'labels'), labels ?? null, selectorMismatchMsg),
    );
  return errs;
}

/** ValidateHasLabel. */
function validateHasLabel(
  labels: Readonly<Record<string, string>>,
  key: string,
  expected: string,
): ErrorList {
  const path = FieldPath.of('spec', 'template', 'metadata', 'labels').key(key);
  const actual = labels[key];
  if (actual === undefined) return [FieldError.required(path, `must be '${expected}'`)];
  return actual === expected ? [] : [FieldError.invalid(path, labels, `must be '${expected}'`)];
}

/** validateGeneratedSelector: a generated selector matches the job's uid and name labels. */
function validateGeneratedSelector(job: Job): ErrorList {
  const spec = job.spec ?? {};
  const labels = spec.template?.metadata?.labels;
  if (spec.manualSelector === true || labels === undefined) return [];
  const uid = job.metadata?.uid ?? '';
  const name = job.metadata?.name ?? '';
  const errs: ErrorList = [];
  if (uid === '') errs.push(FieldError.required(FieldPath.of('metadata', 'uid')));
  errs.push(
    ...validateHasLabel(labels, legacyControllerUidLabel, uid),
    ...validateHasLabel(labels, legacyJobNameLabel, name),
    ...validateHasLabel(labels, controllerUidLabel, uid),
    ...validateHasLabel(labels, jobNameLabel, name),
  );
  const selectorPath = specPath.child('selector');
  if (spec.selector === undefined) errs.push(FieldError.invalid(selectorPath, null, 'field is required'));
  else {
    const converted = labelSelectorAsSelector(spec.selector);
    if (converted.ok && !converted.selector.matches({ [controllerUidLabel]: uid, [jobNameLabel]: name }))
      errs.push(FieldError.invalid(selectorPath, spec.selector, '`selector` not auto-generated'));
  }
  return errs;
}

/**
 * An Indexed Job's pods are named `<job>-<index>` as their hostnames, so the name with the largest
 * index must be a DNS label, or the controller could not create that pod.
 */
function validateIndexedHostname(job: Job): ErrorList {
  const spec = job.spec;
  const completions = spec?.completions ?? 0;
  if (spec?.completionMode !== 'Indexed' || completions <= 0) return [];
  const name = job.metadata?.name ?? '';
  const hostname = `${name}-${String(completions - 1)}`;
  if (isDNS1123Label(hostname).length === 0) return [];
  return [
    FieldError.invalid(
      FieldPath.of('metadata', 'name'),
      name,
      `will not able to create pod with invalid DNS label: ${hostname}`,
    ),
  ];
}

/** ValidateJob. */
export function validateJob(job: Job): ErrorList {
  return [
    ...validateNamespacedMeta(job.metadata),
    ...validateGeneratedSelector(job),
    ...validateJobSpec(job.spec ?? {}, specPath),
    ...validateIndexedHostname(job),
  ];
}

const schedulingDirectives = ['nodeSelector', 'tolerations', 'affinity', 'schedulingGates'];

/** validatePodTemplateUpdate: a suspended job that never started may change its scheduling directives. */
function validatePodTemplateUpdate(job: Job, old: Job): ErrorList {
  const template = job.spec?.template ?? {};
  let prior = old.spec?.template ?? {};
  if (old.spec?.suspend === true && old.status?.startTime === undefined) {
    // Scheduling directives of a suspended job that never started may change.
    const next: Record<string, unknown> = { ...template.spec };
    const spec: Record<string, unknown> = Object.fromEntries(
      Object.entries(prior.spec ?? {}).filter(([k]) => !schedulingDirectives.includes(k)),
    );
    for (const key of schedulingDirectives) if (next[key] !== undefined) spec[key] = next[key];
    const metadata = { ...prior.metadata };
    if (template.metadata?.labels !== undefined) metadata.labels = template.metadata.labels;
    else delete metadata.labels;
    if (template.metadata?.annotations !== undefined) metadata.annotations = template.metadata.annotations;
    else delete metadata.annotations;
    prior = { metadata, spec: spec as unknown as PodSpec };
  }
  return validateImmutableField(template, prior, specPath.child('template'));
}

/** validateCompletions: immutable, except for an indexed job changing it together with parallelism. */
function validateCompletions(spec: JobSpec, old: JobSpec): ErrorList {
  const path = specPath.child('completions');
  if (spec.completionMode !== 'Indexed')
    return validateImmutableField(spec.completions, old.completions, path);
  if (spec.completions === old.completions || spec.completions === undefined) return [];
  return spec.completions === spec.parallelism
    ? []
    : [FieldError.invalid(path, spec.completions, 'can only be modified in tandem with spec.parallelism')];
}

/** The strategy's ValidateUpdate: ValidateJob, then ValidateJobUpdate. */
export function validateJobUpdate(job: Job, old: Job): ErrorList {
  const spec = job.spec ?? {};
  const prior = old.spec ?? {};
  return [
    ...validateJob(job),
    ...validateCoreObjectMetaUpdate(job.metadata ?? {}, old.metadata ?? {}),
    ...validateCompletions(spec, prior),
    ...validateImmutableField(spec.selector, prior.selector, specPath.child('selector')),
    ...validatePodTemplateUpdate(job, old),
    ...validateImmutableField(spec.completionMode, prior.completionMode, specPath.child('completionMode')),
    ...validateImmutableField(
      spec.podFailurePolicy,
      prior.podFailurePolicy,
      specPath.child('podFailurePolicy'),
    ),
    ...validateImmutableField(
      spec.backoffLimitPerIndex,
      prior.backoffLimitPerIndex,
      specPath.child('backoffLimitPerIndex'),
    ),
    ...validateImmutableField(spec.managedBy, prior.managedBy, specPath.child('managedBy')),
    ...validateImmutableField(spec.successPolicy, prior.successPolicy, specPath.child('successPolicy')),
  ];
}

/** The status strategy's ValidateUpdate (kube's ValidateJobUpdateStatus). */
export function validateJobStatusUpdate(job: Job, old: Job): ErrorList {
  return [
    ...validateCoreObjectMetaUpdate(job.metadata ?? {}, old.metadata ?? {}),
    ...validateJobStatusTransition(job, old),
  ];
}
