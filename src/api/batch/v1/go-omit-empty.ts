// Generated from k8s.io/api batch/v1 types.go as of kube 1.33: the members of each struct whose Go field
// is tagged omitempty and can be empty (go-omit-empty.ts says what each class drops). A
// definition listed without members has none; struct-typed members are never dropped, so not listed.
import type { APIModule } from '../../schema/api-module.js';
import type { GoOmitEmptyTables } from '../../schema/go-omit-empty.js';

const def = (name: string): string => `io.k8s.api.batch.v1.${name}`;

const tables: GoOmitEmptyTables = {
  [def('CronJob')]: {},
  [def('CronJobList')]: {},
  [def('CronJobSpec')]: {
    timeZone: 'nil',
    startingDeadlineSeconds: 'nil',
    concurrencyPolicy: 'zero',
    suspend: 'nil',
    successfulJobsHistoryLimit: 'nil',
    failedJobsHistoryLimit: 'nil',
  },
  [def('CronJobStatus')]: { active: 'empty', lastScheduleTime: 'nil', lastSuccessfulTime: 'nil' },
  [def('Job')]: {},
  [def('JobCondition')]: { reason: 'zero', message: 'zero' },
  [def('JobList')]: {},
  [def('JobSpec')]: {
    parallelism: 'nil',
    completions: 'nil',
    activeDeadlineSeconds: 'nil',
    podFailurePolicy: 'nil',
    successPolicy: 'nil',
    backoffLimit: 'nil',
    backoffLimitPerIndex: 'nil',
    maxFailedIndexes: 'nil',
    selector: 'nil',
    manualSelector: 'nil',
    ttlSecondsAfterFinished: 'nil',
    completionMode: 'nil',
    suspend: 'nil',
    podReplacementPolicy: 'nil',
    managedBy: 'nil',
  },
  [def('JobStatus')]: {
    conditions: 'empty',
    startTime: 'nil',
    completionTime: 'nil',
    active: 'zero',
    succeeded: 'zero',
    failed: 'zero',
    terminating: 'nil',
    completedIndexes: 'zero',
    failedIndexes: 'nil',
    uncountedTerminatedPods: 'nil',
    ready: 'nil',
  },
  [def('JobTemplateSpec')]: {},
  [def('PodFailurePolicy')]: {},
  [def('PodFailurePolicyOnExitCodesRequirement')]: { containerName: 'nil' },
  [def('PodFailurePolicyOnPodConditionsPattern')]: {},
  [def('PodFailurePolicyRule')]: { onExitCodes: 'nil', onPodConditions: 'empty' },
  [def('SuccessPolicy')]: {},
  [def('SuccessPolicyRule')]: { succeededIndexes: 'nil', succeededCount: 'nil' },
  [def('UncountedTerminatedPods')]: { succeeded: 'empty', failed: 'empty' },
};

export const batchV1GoOmitEmptyModule: APIModule = { definitions: {}, goOmitEmpty: tables };
