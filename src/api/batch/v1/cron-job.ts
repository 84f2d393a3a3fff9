// batch/v1 CronJob(+List), CronJobSpec, JobTemplateSpec and CronJobStatus.
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { groupKind } from '../../schema/api-module.js';
import { arrayOf, atomicList, bool, int32, int64, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META, TIME } from '../../meta/v1/object-meta.js';
import { OBJECT_REFERENCE, type ObjectReference } from '../../core/v1/object-reference.js';
import { batchV1, batchV1Def, JOB_SPEC, type JobSpec } from './job.js';

export interface JobTemplateSpec {
  metadata?: ObjectMeta;
  spec?: JobSpec;
}

export interface CronJobSpec {
  schedule?: string;
  timeZone?: string;
  startingDeadlineSeconds?: number;
  concurrencyPolicy?: string;
  suspend?: boolean;
  jobTemplate?: JobTemplateSpec;
  successfulJobsHistoryLimit?: number;
  failedJobsHistoryLimit?: number;
}

export interface CronJobStatus {
  active?: ObjectReference[];
  lastScheduleTime?: string;
  lastSuccessfulTime?: string;
}

export interface CronJob extends KubeObject {
  apiVersion?: 'batch/v1';
  kind?: 'CronJob';
  metadata?: ObjectMeta;
  spec?: CronJobSpec;
  status?: CronJobStatus;
}

export interface CronJobList extends KubeObject {
  metadata?: ListMeta;
  items: CronJob[];
}

export const CRON_JOB = batchV1Def('CronJob');
const SPEC = batchV1Def('CronJobSpec');
const STATUS = batchV1Def('CronJobStatus');
const JOB_TEMPLATE_SPEC = batchV1Def('JobTemplateSpec');

export const cronJobKind = groupKind(batchV1, 'CronJob', CRON_JOB);
export const cronJobListKind = groupKind(batchV1, 'CronJobList', batchV1Def('CronJobList'));

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');

export const cronJobModule: APIModule = {
  definitions: {
    [CRON_JOB]: struct('The configuration of a single cron job.', {
      apiVersion,
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      spec: ref(SPEC, 'Desired behavior of the cron job, including the schedule.', { default: {} }),
      status: ref(STATUS, 'Current status of the cron job.', { default: {} }),
    }),
    [SPEC]: struct(
      'How the job runs and when.',
      {
        concurrencyPolicy: str('Allow (the default), Forbid or Replace.', {
          enum: ['Allow', 'Forbid', 'Replace'],
        }),
        failedJobsHistoryLimit: int32('Failed finished jobs to retain; 1 when unset.'),
        jobTemplate: ref(JOB_TEMPLATE_SPEC, 'The job created at each run.', { default: {} }),
        schedule: str('The schedule in Cron format.', { default: '' }),
        startingDeadlineSeconds: int64('Deadline in seconds for starting a job that missed its time.'),
        successfulJobsHistoryLimit: int32('Successful finished jobs to retain; 3 when unset.'),
        suspend: bool('Suspends subsequent runs.'),
        timeZone: str('The time zone name of the schedule.'),
      },
      { required: ['schedule', 'jobTemplate'] },
    ),
    [JOB_TEMPLATE_SPEC]: struct('The data a Job has when created from a template.', {
      metadata: ref(OBJECT_META, 'Metadata of the jobs created from this template.', { default: {} }),
      spec: ref(JOB_SPEC, 'Desired behavior of the job.', { default: {} }),
    }),
    [STATUS]: struct('The current state of a cron job.', {
      active: atomicList(ref(OBJECT_REFERENCE, undefined, { default: {} }), 'Currently running jobs.'),
      lastScheduleTime: ref(TIME, 'When a job was last scheduled.'),
      lastSuccessfulTime: ref(TIME, 'When a job last completed successfully.'),
    }),
    [batchV1Def('CronJobList')]: struct(
      'A list of CronJobs.',
      {
        apiVersion,
        items: arrayOf(ref(CRON_JOB, undefined, { default: {} }), 'The CronJobs.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [cronJobKind, cronJobListKind],
  goTypes: { [SPEC]: { concurrencyPolicy: 'v1.ConcurrencyPolicy' } },
  protobuf: {
    [CRON_JOB]: { metadata: 1, spec: 2, status: 3 },
    [SPEC]: {
      schedule: 1,
      timeZone: pointer(8),
      startingDeadlineSeconds: pointer(2),
      concurrencyPolicy: 3,
      suspend: pointer(4),
      jobTemplate: 5,
      successfulJobsHistoryLimit: pointer(6),
      failedJobsHistoryLimit: pointer(7),
    },
    [JOB_TEMPLATE_SPEC]: { metadata: 1, spec: 2 },
    [STATUS]: { active: 1, lastScheduleTime: pointer(4), lastSuccessfulTime: pointer(5) },
    [batchV1Def('CronJobList')]: { metadata: 1, items: 2 },
  },
};
