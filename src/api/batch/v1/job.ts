// batch/v1 Job(+List), JobSpec, PodFailurePolicy, SuccessPolicy, JobStatus, JobCondition and
// UncountedTerminatedPods (k8s.io/api/batch/v1/types.go).
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { apiDefinitions, groupKind } from '../../schema/api-module.js';
import {
  arrayOf,
  atomicList,
  bool,
  int32,
  int64,
  ref,
  str,
  stringSet,
  struct,
} from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LABEL_SELECTOR, type LabelSelector } from '../../meta/v1/label-selector.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META, TIME } from '../../meta/v1/object-meta.js';
import { POD_TEMPLATE_SPEC, type PodTemplateSpec } from '../../core/v1/pod-template.js';

export const batchV1 = { group: 'batch', version: 'v1' } as const;
export const batchV1Def = apiDefinitions('batch', 'v1');

export interface PodFailurePolicyOnExitCodesRequirement {
  containerName?: string;
  operator: string;
  values: number[];
}

export interface PodFailurePolicyOnPodConditionsPattern {
  type: string;
  status?: string;
}

export interface PodFailurePolicyRule {
  action: string;
  onExitCodes?: PodFailurePolicyOnExitCodesRequirement;
  onPodConditions?: PodFailurePolicyOnPodConditionsPattern[];
}

export interface SuccessPolicyRule {
  succeededIndexes?: string;
  succeededCount?: number;
}

export interface JobSpec {
  parallelism?: number;
  completions?: number;
  activeDeadlineSeconds?: number;
  podFailurePolicy?: { rules: PodFailurePolicyRule[] };
  successPolicy?: { rules: SuccessPolicyRule[] };
  backoffLimit?: number;
  backoffLimitPerIndex?: number;
  maxFailedIndexes?: number;
  selector?: LabelSelector;
  manualSelector?: boolean;
  template?: PodTemplateSpec;
  ttlSecondsAfterFinished?: number;
  completionMode?: string;
  suspend?: boolean;
  podReplacementPolicy?: string;
  managedBy?: string;
}

export interface JobCondition {
  type: string;
  status: string;
  lastProbeTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface JobStatus {
  conditions?: JobCondition[];
  startTime?: string;
  completionTime?: string;
  active?: number;
  succeeded?: number;
  failed?: number;
  terminating?: number;
  completedIndexes?: string;
  failedIndexes?: string;
  uncountedTerminatedPods?: { succeeded?: string[]; failed?: string[] };
  ready?: number;
}

export interface Job extends KubeObject {
  apiVersion?: 'batch/v1';
  kind?: 'Job';
  metadata?: ObjectMeta;
  spec?: JobSpec;
  status?: JobStatus;
}

export interface JobList extends KubeObject {
  metadata?: ListMeta;
  items: Job[];
}

export const JOB = batchV1Def('Job');
export const JOB_SPEC = batchV1Def('JobSpec');
const JOB_STATUS = batchV1Def('JobStatus');
const JOB_CONDITION = batchV1Def('JobCondition');
const UNCOUNTED = batchV1Def('UncountedTerminatedPods');
const POD_FAILURE_POLICY = batchV1Def('PodFailurePolicy');
const PFP_RULE = batchV1Def('PodFailurePolicyRule');
const PFP_EXIT_CODES = batchV1Def('PodFailurePolicyOnExitCodesRequirement');
const PFP_POD_CONDITIONS = batchV1Def('PodFailurePolicyOnPodConditionsPattern');
const SUCCESS_POLICY = batchV1Def('SuccessPolicy');
const SUCCESS_POLICY_RULE = batchV1Def('SuccessPolicyRule');

export const jobKind = groupKind(batchV1, 'Job', JOB);
export const jobListKind = groupKind(batchV1, 'JobList', batchV1Def('JobList'));

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');

export const jobModule: APIModule = {
  definitions: {
    [JOB]: struct('The configuration of a single job.', {
      apiVersion,
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      spec: ref(JOB_SPEC, 'Desired behavior of the job.', { default: {} }),
      status: ref(JOB_STATUS, 'Current status of the job.', { default: {} }),
    }),
    [JOB_SPEC]: struct(
      'How a job runs.',
      {
        activeDeadlineSeconds: int64('Seconds the job may be active before it is terminated.'),
        backoffLimit: int32('Retries before the job is marked failed; 6 when unset.'),
        backoffLimitPerIndex: int32('Retries within one index before the index is marked failed.'),
        completionMode: str('NonIndexed (the default) or Indexed.', { enum: ['Indexed', 'NonIndexed'] }),
        completions: int32('Successfully finished pods the job needs.'),
        managedBy: str('The controller that manages the job.'),
        manualSelector: bool('The user picks the pod labels and selector.'),
        maxFailedIndexes: int32('Failed indexes before the job is marked failed.'),
        parallelism: int32('Pods the job runs at most at any time.'),
        podFailurePolicy: ref(POD_FAILURE_POLICY, 'How failed pods count towards the backoff limit.'),
        podReplacementPolicy: str('TerminatingOrFailed or Failed.', {
          enum: ['Failed', 'TerminatingOrFailed'],
        }),
        selector: ref(LABEL_SELECTOR, 'A label query over pods; normally set by the system.'),
        successPolicy: ref(SUCCESS_POLICY, 'When the job can be declared succeeded.'),
        suspend: bool('The job controller creates no pods while set.'),
        template: ref(POD_TEMPLATE_SPEC, 'The pods created when executing the job.', { default: {} }),
        ttlSecondsAfterFinished: int32('Seconds after finishing before the job may be deleted.'),
      },
      { required: ['template'] },
    ),
    [POD_FAILURE_POLICY]: struct(
      'How failed pods influence the backoff limit.',
      { rules: atomicList(ref(PFP_RULE, undefined, { default: {} }), 'Rules evaluated in order.') },
      { required: ['rules'] },
    ),
    [PFP_RULE]: struct(
      'How a pod failure is handled when the requirements are met.',
      {
        action: str('FailJob, FailIndex, Ignore or Count.', {
          enum: ['Count', 'FailIndex', 'FailJob', 'Ignore'],
        }),
        onExitCodes: ref(PFP_EXIT_CODES, 'The requirement on container exit codes.'),
        onPodConditions: atomicList(
          ref(PFP_POD_CONDITIONS, undefined, { default: {} }),
          'Pod condition patterns.',
        ),
      },
      { required: ['action'] },
    ),
    [PFP_EXIT_CODES]: struct(
      'A requirement on container exit codes.',
      {
        containerName: str('The container the check is restricted to.'),
        operator: str('In or NotIn.', { enum: ['In', 'NotIn'] }),
        values: arrayOf(int32(), 'The exit codes.', { 'x-kubernetes-list-type': 'set' }),
      },
      { required: ['operator', 'values'] },
    ),
    [PFP_POD_CONDITIONS]: struct(
      'A pattern matching a pod condition.',
      {
        status: str('The required condition status; True when unset.'),
        type: str('The required pod condition type.'),
      },
      { required: ['type'] },
    ),
    [SUCCESS_POLICY]: struct(
      'When an indexed job can be declared succeeded.',
      {
        rules: atomicList(
          ref(SUCCESS_POLICY_RULE, undefined, { default: {} }),
          'Rules, any of which declares success.',
        ),
      },
      { required: ['rules'] },
    ),
    [SUCCESS_POLICY_RULE]: struct('One rule of a success policy.', {
      succeededCount: int32('Minimal number of succeeded indexes.'),
      succeededIndexes: str('The indexes that must succeed, as intervals.'),
    }),
    [JOB_STATUS]: struct('The current state of a job.', {
      active: int32('Pending and running pods that are not terminating.'),
      completedIndexes: str('Completed indexes, as intervals.'),
      completionTime: ref(TIME, 'When the job completed.'),
      conditions: arrayOf(ref(JOB_CONDITION, undefined, { default: {} }), "The job's conditions.", {
        'x-kubernetes-list-type': 'atomic',
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-patch-merge-key': 'type',
      }),
      failed: int32('Pods that reached phase Failed.'),
      failedIndexes: str('Failed indexes, as intervals.'),
      ready: int32('Pods with a Ready condition.'),
      startTime: ref(TIME, 'When the job controller started processing the job.'),
      succeeded: int32('Pods that reached phase Succeeded.'),
      terminating: int32('Pods that are terminating.'),
      uncountedTerminatedPods: ref(UNCOUNTED, 'Terminated pods not yet counted.'),
    }),
    [UNCOUNTED]: struct('UIDs of terminated pods not yet counted in the status.', {
      failed: stringSet('UIDs of failed pods.'),
      succeeded: stringSet('UIDs of succeeded pods.'),
    }),
    [JOB_CONDITION]: struct(
      'The state of a job at a certain point.',
      {
        lastProbeTime: ref(TIME, 'Last time the condition was checked.'),
        lastTransitionTime: ref(TIME, 'Last time the condition transitioned.'),
        message: str('Details about the last transition.'),
        reason: str("The reason for the condition's last transition."),
        status: str('True, False or Unknown.'),
        type: str('Type of job condition.'),
      },
      { required: ['type', 'status'] },
    ),
    [batchV1Def('JobList')]: struct(
      'A list of Jobs.',
      {
        apiVersion,
        items: arrayOf(ref(JOB, undefined, { default: {} }), 'The Jobs.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [jobKind, jobListKind],
  goTypes: {
    [JOB_SPEC]: { completionMode: 'v1.CompletionMode', podReplacementPolicy: 'v1.PodReplacementPolicy' },
    [JOB_CONDITION]: { type: 'v1.JobConditionType', status: 'v1.ConditionStatus' },
    [PFP_RULE]: { action: 'v1.PodFailurePolicyAction' },
    [PFP_EXIT_CODES]: { operator: 'v1.PodFailurePolicyOnExitCodesOperator' },
    [PFP_POD_CONDITIONS]: { type: 'v1.PodConditionType', status: 'v1.ConditionStatus' },
  },
  protobuf: {
    [JOB]: { metadata: 1, spec: 2, status: 3 },
    [JOB_SPEC]: {
      parallelism: pointer(1),
      completions: pointer(2),
      activeDeadlineSeconds: pointer(3),
      podFailurePolicy: pointer(11),
      successPolicy: pointer(16),
      backoffLimit: pointer(7),
      backoffLimitPerIndex: pointer(12),
      maxFailedIndexes: pointer(13),
      selector: pointer(4),
      manualSelector: pointer(5),
      template: 6,
      ttlSecondsAfterFinished: pointer(8),
      completionMode: pointer(9),
      suspend: pointer(10),
      podReplacementPolicy: pointer(14),
      managedBy: pointer(15),
    },
    [POD_FAILURE_POLICY]: { rules: 1 },
    [PFP_RULE]: { action: 1, onExitCodes: pointer(2), onPodConditions: 3 },
    [PFP_EXIT_CODES]: { containerName: pointer(1), operator: 2, values: 3 },
    [PFP_POD_CONDITIONS]: { type: 1, status: 2 },
    [SUCCESS_POLICY]: { rules: 1 },
    [SUCCESS_POLICY_RULE]: { succeededIndexes: pointer(1), succeededCount: pointer(2) },
    [JOB_STATUS]: {
      conditions: 1,
      startTime: pointer(2),
      completionTime: pointer(3),
      active: 4,
      succeeded: 5,
      failed: 6,
      terminating: pointer(11),
      completedIndexes: 7,
      failedIndexes: pointer(10),
      uncountedTerminatedPods: pointer(8),
      ready: pointer(9),
    },
    [UNCOUNTED]: { succeeded: 1, failed: 2 },
    [JOB_CONDITION]: { type: 1, status: 2, lastProbeTime: 3, lastTransitionTime: 4, reason: 5, message: 6 },
    [batchV1Def('JobList')]: { metadata: 1, items: 2 },
  },
};
