// The CronJob controller (pkg/controller/cronjob/cronjob_controllerv2.go), on the server's clock:
// at each activation of the schedule it makes a Job from the template, unless suspended, past
// startingDeadlineSeconds, or held back by concurrencyPolicy (Forbid skips while a Job runs,
// Replace deletes the running ones first); status.active lists the Jobs it started until they
// finish, lastSuccessfulTime follows the completed ones, and finished Jobs beyond the history
// limits are deleted. The next activation is a timer on the clock, so a virtual clock advanced
// past it starts the Job.
import type { CronJob } from '../../../api/batch/v1/cron-job.js';
import type { ObjectReference } from '../../../api/core/v1/object-reference.js';
import type { Job } from '../../../api/batch/v1/job.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import type { Logger } from '../../../server/logging/logger.js';
import type { EventNote, EventRecorder } from '../event-recorder.js';
import { copyOf, type APIClient } from '../simulation/api-client.js';
import { rfc3339, type SimClock } from '../simulation/clock.js';
import { controllerRefOf } from '../simulation/controller-ref.js';
import { keyOf, splitKey, type Informer } from '../simulation/informer.js';
import { objectRef } from '../simulation/pod-control.js';
import { WorkLoop } from '../simulation/work-loop.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';
import {
  cronJobKind,
  finishedAs,
  jobFor,
  jobsBeyondHistory,
  mostRecentScheduleTime,
} from './cronjob-jobs.js';
import { parseSchedule } from './schedule.js';

export interface CronJobControllerOptions {
  readonly client: APIClient;
  readonly cronJobs: Informer<CronJob>;
  readonly jobs: Informer<Job>;
  readonly clock: SimClock;
  readonly logger: Logger;
  readonly recorder?: EventRecorder;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

const refTo = (job: Job): ObjectReference => ({
  kind: 'Job',
  apiVersion: 'batch/v1',
  name: job.metadata?.name ?? '',
  namespace: job.metadata?.namespace ?? '',
  uid: job.metadata?.uid ?? '',
  ...(job.metadata?.resourceVersion === undefined ? {} : { resourceVersion: job.metadata.resourceVersion }),
});

export class CronJobController {
  readonly #opts: CronJobControllerOptions;
  readonly #loop: WorkLoop;
  readonly #timers = new Map<string, { at: number; cancel: () => void }>();

  constructor(opts: CronJobControllerOptions) {
    this.#opts = opts;
    this.#loop = new WorkLoop({
      queueName: 'cronjob',
      workqueueMetrics: opts.workqueueMetrics,
      name: 'cronjob',
      logger: opts.logger,
      sync: (k) => this.#sync(k),
    });
    opts.cronJobs.addHandler((type, cj) => {
      if (type === 'DELETED') this.#cancel(keyOf(cj));
      else this.#loop.queue.add(keyOf(cj));
    });
    opts.jobs.addHandler((_t, job) => {
      const ref = controllerRefOf(job);
      if (ref?.kind === 'CronJob') this.#loop.queue.add(`${job.metadata?.namespace ?? ''}/${ref.name}`);
    });
  }

  run(): void {
    this.#loop.run();
    for (const cj of this.#opts.cronJobs.list()) this.#loop.queue.add(keyOf(cj));
  }

  async close(): Promise<void> {
    for (const key of [...this.#timers.keys()]) this.#cancel(key);
    await this.#loop.close();
  }

  #cancel(key: string): void {
    this.#timers.get(key)?.cancel();
    this.#timers.delete(key);
  }

  /** Syncs the key again at `at` (on the clock); an earlier request wins. */
  #requeueAt(key: string, at: number): void {
    const current = this.#timers.get(key);
    if (current !== undefined && current.at <= at && current.at > this.#opts.clock.now()) return;
    current?.cancel();
    const cancel = this.#opts.clock.after(at - this.#opts.clock.now(), () => {
      this.#timers.delete(key);
      this.#loop.queue.add(key);
    });
    this.#timers.set(key, { at, cancel });
  }

  async #sync(key: string): Promise<void> {
    const informerCopy = this.#opts.cronJobs.get(key);
    if (informerCopy === undefined) {
      this.#cancel(key);
      return;
    }
    const { namespace } = splitKey(key);
    const jobs = this.#opts.jobs
      .list(namespace)
      .filter((j) => controllerRefOf(j)?.uid === informerCopy.metadata?.uid);
    const { cj, status } = await this.#reconcileActive(informerCopy, jobs);
    const now = this.#opts.clock.now();
    const schedule = parseSchedule(cj.spec?.schedule ?? '', cj.spec?.timeZone);
    if (cj.metadata?.deletionTimestamp === undefined && cj.spec?.suspend !== true) {
      const scheduled = mostRecentScheduleTime(cj, schedule, now);
      if (scheduled !== undefined) await this.#start(cj, { status, jobs, scheduled });
      const next = schedule.next(now);
      if (next !== undefined) this.#requeueAt(key, next);
    }
    await this.#writeStatus(cj, status);
    for (const job of jobsBeyondHistory(cj, jobs)) await this.#deleteJob(cj, job);
  }

  /**
   * kube's syncCronJob bookkeeping: status.active holds the Jobs this controller started, each
   * until it finishes (SawCompletedJob) or goes missing (MissingJob); a running Job of the
   * CronJob it did not start (kubectl create job --from=cronjob/…) is only reported
   * (UnexpectedJob), never added. lastSuccessfulTime follows the completed Jobs.
   */
  async #reconcileActive(
    informerCopy: CronJob,
    jobs: readonly Job[],
  ): Promise<{ cj: CronJob; status: NonNullable<CronJob['status']> }> {
    let cj = informerCopy;
    let status = copyOf(cj.status ?? {});
    const listed = (s: CronJob['status'], job: Job) =>
      (s?.active ?? []).some((r) => r.uid === job.metadata?.uid);
    for (const job of jobs) {
      const outcome = finishedAs(job);
      if (outcome === undefined && !listed(status, job)) {
        // The informer may not hold the status that listed a Job just started: read it afresh.
        const fresh = await this.#opts.client.get<CronJob>('batch/v1/cronjobs', {
          namespace: cj.metadata?.namespace ?? '',
          name: cj.metadata?.name ?? '',
        });
        if (listed(fresh.status, job)) {
          cj = fresh;
          status = copyOf(fresh.status ?? {});
          continue;
        }
        this.#event(cj, {
          type: 'Warning',
          reason: 'UnexpectedJob',
          message: `Saw a job that the controller did not create or forgot: ${job.metadata?.name ?? ''}`,
        });
        continue;
      }
      if (outcome === undefined) continue;
      if (listed(status, job)) {
        status.active = (status.active ?? []).filter((r) => r.uid !== job.metadata?.uid);
        this.#event(cj, {
          type: 'Normal',
          reason: 'SawCompletedJob',
          message: `Saw completed job: ${job.metadata?.name ?? ''}, condition: ${outcome}`,
        });
      }
      const completed = job.status?.completionTime;
      if (outcome === 'Complete' && completed !== undefined)
        if ((status.lastSuccessfulTime ?? '') < completed) status.lastSuccessfulTime = completed;
    }
    for (const ref of status.active ?? []) {
      if (jobs.some((j) => j.metadata?.uid === ref.uid)) continue;
      if (await this.#exists(ref)) continue;
      status.active = (status.active ?? []).filter((r) => r.uid !== ref.uid);
      this.#event(cj, {
        type: 'Normal',
        reason: 'MissingJob',
        message: `Active job went missing: ${ref.name ?? ''}`,
      });
    }
    if (status.active?.length === 0) delete status.active;
    return { cj, status };
  }

  /** A Job the informer does not hold, read from storage to tell a slow watch from a deletion. */
  async #exists(ref: ObjectReference): Promise<boolean> {
    try {
      const job = await this.#opts.client.get<Job>('batch/v1/jobs', {
        namespace: ref.namespace ?? '',
        name: ref.name ?? '',
      });
      return job.metadata?.uid === ref.uid;
    } catch (err) {
      if (reasonForError(err) === 'NotFound') return false;
      throw err;
    }
  }

  async #start(
    cj: CronJob,
    at: { status: NonNullable<CronJob['status']>; jobs: readonly Job[]; scheduled: number },
  ): Promise<void> {
    const { status, scheduled } = at;
    const policy = cj.spec?.concurrencyPolicy ?? 'Allow';
    const active = status.active ?? [];
    if (policy === 'Forbid' && active.length > 0) {
      this.#event(cj, {
        type: 'Normal',
        reason: 'JobAlreadyActive',
        message: 'Not starting job because prior execution is running and concurrency policy is Forbid',
      });
      return;
    }
    if (policy === 'Replace')
      for (const job of at.jobs.filter((j) => active.some((r) => r.uid === j.metadata?.uid)))
        await this.#deleteJob(cj, job);
    let created: Job;
    try {
      created = await this.#opts.client.create(
        'batch/v1/jobs',
        cj.metadata?.namespace ?? '',
        jobFor(cj, scheduled),
      );
      this.#event(cj, {
        type: 'Normal',
        reason: 'SuccessfulCreate',
        message: `Created job ${created.metadata?.name ?? ''}`,
      });
    } catch (err) {
      if (reasonForError(err) !== 'AlreadyExists') throw err;
      status.lastScheduleTime = rfc3339(scheduled);
      return;
    }
    status.active = [...(policy === 'Replace' ? [] : active), refTo(created)];
    status.lastScheduleTime = rfc3339(scheduled);
  }

  async #deleteJob(cj: CronJob, job: Job): Promise<void> {
    const name = job.metadata?.name ?? '';
    try {
      await this.#opts.client.delete(
        'batch/v1/jobs',
        { namespace: job.metadata?.namespace ?? '', name },
        { propagationPolicy: 'Background' },
      );
    } catch (err) {
      if (reasonForError(err) === 'NotFound') return;
      throw err;
    }
    this.#event(cj, { type: 'Normal', reason: 'SuccessfulDelete', message: `Deleted job ${name}` });
  }

  #event(cj: CronJob, note: EventNote): void {
    this.#opts.recorder?.event(objectRef(cj, cronJobKind), note);
  }

  async #writeStatus(cj: CronJob, status: NonNullable<CronJob['status']>): Promise<void> {
    const strip = (s: CronJob['status']): string =>
      JSON.stringify({ ...s, active: (s?.active ?? []).map((r) => r.uid) });
    if (strip(cj.status) === strip(status)) return;
    const updated = copyOf(cj);
    updated.status = status;
    await this.#opts.client.update('batch/v1/cronjobs/status', updated);
  }
}
