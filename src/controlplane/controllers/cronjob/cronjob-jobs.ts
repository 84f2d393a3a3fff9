// What a CronJob knows of its Jobs (pkg/controller/cronjob/utils.go): the schedule time it last
// missed or is due, the Job made for a scheduled time, and which finished Jobs fall outside the
// history limits.
import type { CronJob } from '../../../api/batch/v1/cron-job.js';
import type { Job } from '../../../api/batch/v1/job.js';
import { newControllerRef } from '../simulation/controller-ref.js';
import { copyOf } from '../simulation/api-client.js';
import { rfc3339 } from '../simulation/clock.js';
import type { CronSchedule } from './schedule.js';

export const cronJobKind = { apiVersion: 'batch/v1', kind: 'CronJob' } as const;
export const scheduledTimestampAnnotation = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

/** The latest activation in (last schedule or creation, now], within startingDeadlineSeconds. */
export function mostRecentScheduleTime(cj: CronJob, schedule: CronSchedule, now: number): number | undefined {
  let earliest = Date.parse(cj.status?.lastScheduleTime ?? cj.metadata?.creationTimestamp ?? '');
  if (Number.isNaN(earliest)) earliest = now;
  const deadline = cj.spec?.startingDeadlineSeconds;
  if (deadline !== undefined) earliest = Math.max(earliest, now - deadline * 1000);
  let t = schedule.next(earliest);
  if (t === undefined || t > now) return undefined;
  for (let n = 0; n < 100_000; n++) {
    const after = schedule.next(t);
    if (after === undefined || after > now) break;
    t = after;
  }
  return t;
}

/** getJobFromTemplate2: named `<cronjob>-<scheduled minutes since the epoch>`. */
export function jobFor(cj: CronJob, scheduledMs: number): Job {
  const tm = cj.spec?.jobTemplate?.metadata ?? {};
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: `${cj.metadata?.name ?? ''}-${String(Math.floor(scheduledMs / 60_000))}`,
      namespace: cj.metadata?.namespace ?? '',
      ...(tm.labels === undefined ? {} : { labels: { ...tm.labels } }),
      annotations: { ...tm.annotations, [scheduledTimestampAnnotation]: rfc3339(scheduledMs) },
      ownerReferences: [newControllerRef(cj, cronJobKind)],
    },
    spec: copyOf(cj.spec?.jobTemplate?.spec ?? {}),
  };
}

export function finishedAs(job: Job): 'Complete' | 'Failed' | undefined {
  const c = (job.status?.conditions ?? []).find(
    (x) => (x.type === 'Complete' || x.type === 'Failed') && x.status === 'True',
  );
  return c?.type as 'Complete' | 'Failed' | undefined;
}

const started = (j: Job): number =>
  Date.parse(j.status?.startTime ?? j.metadata?.creationTimestamp ?? '') || 0;

/** cleanupFinishedJobs: the oldest finished Jobs beyond each limit. */
export function jobsBeyondHistory(cj: CronJob, jobs: readonly Job[]): Job[] {
  const beyond = (outcome: 'Complete' | 'Failed', limit: number | undefined): Job[] => {
    if (limit === undefined) return [];
    const done = jobs
      .filter((j) => finishedAs(j) === outcome && j.metadata?.deletionTimestamp === undefined)
      .sort((a, b) => started(a) - started(b));
    return done.slice(0, Math.max(0, done.length - limit));
  };
  return [
    ...beyond('Complete', cj.spec?.successfulJobsHistoryLimit),
    ...beyond('Failed', cj.spec?.failedJobsHistoryLimit),
  ];
}
