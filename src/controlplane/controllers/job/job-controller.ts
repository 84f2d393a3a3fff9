// The Job controller (pkg/controller/job): keeps min(parallelism, completions left) pods running
// from the template, owned by the Job, and finishes the Job once enough pods succeeded or more than
// backoffLimit failed (or one matched a FailJob rule of its podFailurePolicy), deleting what still
// runs; a suspended Job runs no pods. Indexed jobs give each pod a completion index and count an
// index once. Failed pods are replaced after kube's backoff delay and activeDeadlineSeconds fails
// a Job, both on the clock. backoffLimitPerIndex, successPolicy and the job-tracking finalizer
// are not done: the counts are read off the pods that still exist.
import type { Job } from '../../../api/batch/v1/job.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import type { Logger } from '../../../server/logging/logger.js';
import type { EventRecorder } from '../event-recorder.js';
import { Expectations } from '../replicaset/expectations.js';
import type { APIClient } from '../simulation/api-client.js';
import { copyOf } from '../simulation/api-client.js';
import { rfc3339, type SimClock } from '../simulation/clock.js';
import { labelSelectorAsSelector } from '../../../machinery/labels/meta-label-selector.js';
import { claimObjects } from '../simulation/claim-objects.js';
import { controllerRefOf } from '../simulation/controller-ref.js';
import {
  createPod,
  createPodsExpected,
  isNamespaceTerminating,
  objectRef,
  observePod,
  podFromTemplate,
} from '../simulation/pod-control.js';
import { isIndexed, pendingIndexes, succeededIndexes, withIndex } from './indexed.js';
import { keyOf, splitKey, type Informer } from '../simulation/informer.js';
import { WorkLoop } from '../simulation/work-loop.js';
import {
  completionsOf,
  countPods,
  deadlineLeft,
  isFinished,
  jobStatus,
  outcomeOf,
  type JobCounts,
  type JobOutcome,
} from './job-status.js';
import { settledOutcome } from './job-conditions.js';
import { planStatus } from './status-plan.js';
import { remainingBackoff } from './pod-backoff.js';

const jobKind = { apiVersion: 'batch/v1', kind: 'Job' } as const;

export interface JobControllerOptions {
  readonly client: APIClient;
  readonly jobs: Informer<Job>;
  readonly pods: Informer<Pod>;
  readonly clock: SimClock;
  readonly logger: Logger;
  readonly recorder?: EventRecorder;
}

export class JobController {
  readonly #opts: JobControllerOptions;
  readonly #loop: WorkLoop;
  readonly #expectations: Expectations;
  readonly #timers = new Map<string, { readonly at: number; readonly cancel: () => void }>();

  constructor(opts: JobControllerOptions) {
    this.#opts = opts;
    this.#expectations = new Expectations(() => opts.clock.now());
    this.#loop = new WorkLoop({ name: 'job', logger: opts.logger, sync: (k) => this.#sync(k) });
    opts.jobs.addHandler((_t, job) => {
      this.#loop.queue.add(keyOf(job));
    });
    opts.pods.addHandler((type, pod, old) => {
      const ref = controllerRefOf(pod);
      if (ref === undefined && type !== 'DELETED') this.#orphan(pod);
      if (ref?.kind !== 'Job') return;
      const jobKey = `${pod.metadata?.namespace ?? ''}/${ref.name}`;
      observePod(this.#expectations, jobKey, { type, pod, old });
      this.#loop.queue.add(jobKey);
    });
  }

  run(): void {
    this.#loop.run();
    for (const job of this.#opts.jobs.list()) this.#loop.queue.add(keyOf(job));
  }

  close(): Promise<void> {
    for (const timer of this.#timers.values()) timer.cancel();
    this.#timers.clear();
    return this.#loop.close();
  }

  /**
   * Syncs the Job again once `ms` have passed on the clock (kube's enqueueSyncJobWithDelay); an
   * earlier pending one stands, as every sync asks again for what it still waits on.
   */
  #syncAfter(key: string, ms: number): void {
    const at = this.#opts.clock.now() + ms;
    const current = this.#timers.get(key);
    if (current !== undefined && current.at <= at) return;
    current?.cancel();
    const cancel = this.#opts.clock.after(ms, () => {
      this.#timers.delete(key);
      this.#loop.queue.add(key);
    });
    this.#timers.set(key, { at, cancel });
  }

  /** An orphan pod: the jobs in its namespace whose selector matches it. */
  #orphan(pod: Pod): void {
    for (const job of this.#opts.jobs.list(pod.metadata?.namespace ?? '')) {
      const sel = labelSelectorAsSelector(job.spec?.selector);
      if (sel.ok && !sel.selector.empty() && sel.selector.matches(pod.metadata?.labels ?? {}))
        this.#loop.queue.add(keyOf(job));
    }
  }

  async #sync(key: string): Promise<void> {
    const job = this.#opts.jobs.get(key);
    if (job === undefined) {
      this.#expectations.forget(key);
      return;
    }
    if (isFinished(job) || job.metadata?.deletionTimestamp !== undefined) return;
    if (!this.#expectations.satisfied(key)) return;
    const { namespace } = splitKey(key);
    const sel = labelSelectorAsSelector(job.spec?.selector);
    if (!sel.ok) return;
    const pods = await claimObjects({
      client: this.#opts.client,
      path: '/v1/pods',
      owner: job,
      gvk: jobKind,
      selector: sel.selector,
      candidates: this.#opts.pods.list(namespace),
    });
    const counts = countPods(job, pods);
    const now = this.#opts.clock.now();
    // An outcome an earlier sync wrote as SuccessCriteriaMet or FailureTarget stands.
    const outcome = settledOutcome(job) ?? outcomeOf(job, { counts, now });
    const suspended = job.spec?.suspend === true;
    const left = deadlineLeft(job, now);
    if (outcome === undefined && left !== undefined) this.#syncAfter(key, left);
    let failed: { readonly err: unknown } | undefined;
    try {
      // A finished or suspended Job deletes every pod still running.
      if (outcome !== undefined || suspended) await this.#deleteAll(key, counts.active);
      else await this.#manage(key, job, counts);
    } catch (err) {
      failed = { err };
    }
    const activeDeleted = failed === undefined && (outcome !== undefined || suspended);
    // As syncJob: the status is written before a failure to create or delete pods is returned.
    await this.#writeStatus(job, { counts, outcome, activeDeleted });
    if (failed !== undefined) throw failed.err;
  }

  async #manage(key: string, job: Job, counts: JobCounts): Promise<void> {
    const want = Math.max(0, Math.min(job.spec?.parallelism ?? 1, completionsOf(job) - counts.succeeded));
    const missing = want - counts.active.length;
    const backoff = missing > 0 ? remainingBackoff(counts.all, this.#opts.clock.now()) : 0;
    if (backoff > 0) this.#syncAfter(key, backoff);
    else if (missing > 0) {
      const indexes = isIndexed(job)
        ? pendingIndexes(
            completionsOf(job),
            { succeeded: succeededIndexes(counts.all, completionsOf(job)), active: counts.active },
            missing,
          )
        : Array.from({ length: missing }, () => undefined);
      try {
        await createPodsExpected(
          this.#expectations,
          key,
          indexes.map((i) => () => this.#createPod(job, i)),
        );
      } catch (err) {
        // Every create fails while the namespace goes away; that is no failure of the Job.
        if (!isNamespaceTerminating(err)) throw err;
      }
    } else if (missing < 0) await this.#deleteAll(key, counts.active.slice(0, -missing));
  }

  async #createPod(job: Job, index: number | undefined): Promise<void> {
    const template = podFromTemplate(job, { gvk: jobKind, template: job.spec?.template });
    const pod = index === undefined ? template : withIndex(template, job, index);
    await createPod(
      { client: this.#opts.client, recorder: this.#opts.recorder },
      { owner: job, gvk: jobKind, pod },
    );
  }

  async #deleteAll(key: string, pods: readonly Pod[]): Promise<void> {
    if (pods.length === 0) return;
    this.#expectations.expect(key, 0, pods.map(keyOf));
    for (const pod of pods) {
      try {
        await this.#opts.client.delete(
          '/v1/pods',
          { namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '' },
          {},
        );
      } catch (err) {
        this.#expectations.deletionObserved(key, keyOf(pod));
        if (reasonForError(err) !== 'NotFound') throw err;
      }
    }
  }

  async #writeStatus(
    job: Job,
    at: { counts: JobCounts; outcome: JobOutcome | undefined; activeDeleted: boolean },
  ): Promise<void> {
    const now = rfc3339(this.#opts.clock.now());
    const plan = planStatus(job, { ...at, now });
    const status = jobStatus(job, at.counts, plan);
    const before = job.status ?? {};
    const same =
      !plan.conditionsChanged &&
      before.startTime === status.startTime &&
      // active, succeeded, failed and completedIndexes are stored without their zero value (omitempty).
      (before.active ?? 0) === (status.active ?? 0) &&
      (before.succeeded ?? 0) === (status.succeeded ?? 0) &&
      (before.failed ?? 0) === (status.failed ?? 0) &&
      before.ready === status.ready &&
      before.terminating === status.terminating &&
      (before.completedIndexes ?? '') === (status.completedIndexes ?? '');
    if (same) return;
    const updated = copyOf(job);
    updated.status = status;
    try {
      await this.#opts.client.update('batch/v1/jobs/status', updated);
    } catch (err) {
      if (reasonForError(err) !== 'NotFound') throw err;
      return;
    }
    for (const e of plan.events) this.#opts.recorder?.event(objectRef(job, jobKind), e);
  }
}
