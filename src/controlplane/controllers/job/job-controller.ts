// The Job controller (pkg/controller/job): keeps the pods a Job wants running from its template
// and finishes the Job once enough pods succeeded or a rule of its successPolicy is met, or fails
// it (a FailJob rule of its podFailurePolicy, more failures than backoffLimit,
// activeDeadlineSeconds, failed indexes with backoffLimitPerIndex), deleting what still runs; a
// suspended Job runs no pods. Pods are tracked with the batch.kubernetes.io/job-tracking finalizer
// and status.uncountedTerminatedPods, so a pod deleted before its end was counted is counted all
// the same (a pod deleted before it succeeded counts as failed). Failed pods are replaced after
// kube's backoff delay, the Job's or, with backoffLimitPerIndex, their index's.
import type { Job } from '../../../api/batch/v1/job.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { OwnerReference } from '../../../api/meta.js';
import { labelSelectorAsSelector } from '../../../machinery/labels/meta-label-selector.js';
import type { Logger } from '../../../server/logging/logger.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';
import type { EventRecorder } from '../event-recorder.js';
import { Expectations } from '../replicaset/expectations.js';
import type { APIClient } from '../simulation/api-client.js';
import { copyOf } from '../simulation/api-client.js';
import { claimObjects } from '../simulation/claim-objects.js';
import { rfc3339, type SimClock } from '../simulation/clock.js';
import { controllerRefOf } from '../simulation/controller-ref.js';
import { keyOf, type Informer, type InformerEventType } from '../simulation/informer.js';
import { observePod } from '../simulation/pod-control.js';
import { WorkLoop } from '../simulation/work-loop.js';
import { BackoffStore } from './backoff-record.js';
import { FinalizerExpectations } from './finalizer-expectations.js';
import { indexedJobCondition } from './indexed-conditions.js';
import { settleRunningJob } from './job-phase.js';
import { deadlineLeft, failureCondition, isFinished, managedElsewhere } from './job-status.js';
import { deleteActivePods, type ManageDeps } from './manage-job.js';
import { removeTrackingFinalizer } from './pod-finalizers.js';
import { newSyncContext } from './sync-context.js';
import { trackJobStatus } from './track-status.js';
import { hasTrackingFinalizer, jobTrackingFinalizer } from './tracking.js';

const jobKind = { apiVersion: 'batch/v1', kind: 'Job' } as const;

export interface JobControllerOptions {
  readonly client: APIClient;
  readonly jobs: Informer<Job>;
  readonly pods: Informer<Pod>;
  readonly clock: SimClock;
  readonly logger: Logger;
  readonly recorder?: EventRecorder;
  /** Where the two queues' workqueue_* metrics go (the server's); none without it. */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

export class JobController {
  readonly #opts: JobControllerOptions;
  readonly #loop: WorkLoop;
  /** Pods whose finalizer no Job's sync will remove: orphans, and pods of finished or deleted Jobs. */
  readonly #orphans: WorkLoop;
  readonly #expectations: Expectations;
  readonly #finalizers = new FinalizerExpectations();
  readonly #backoffs = new BackoffStore();
  readonly #timers = new Map<string, { readonly at: number; readonly cancel: () => void }>();

  constructor(opts: JobControllerOptions) {
    this.#opts = opts;
    this.#expectations = new Expectations(() => opts.clock.now());
    const { logger, workqueueMetrics } = opts;
    this.#loop = new WorkLoop({ name: 'job', logger, workqueueMetrics, sync: (k) => this.#sync(k) });
    this.#orphans = new WorkLoop({
      name: 'job_orphan_pod',
      logger,
      workqueueMetrics,
      sync: (k) => this.#syncOrphanPod(k),
    });
    opts.jobs.addHandler((type, job) => {
      this.#loop.queue.add(keyOf(job));
      // A deleted Job's pods, and (as a backup) a finished one's, let go of the finalizer.
      if (type === 'DELETED' || (type === 'MODIFIED' && isFinished(job))) this.#cleanupPodFinalizers(job);
    });
    opts.pods.addHandler((type, pod, old) => {
      if (type === 'DELETED' || pod.metadata?.deletionTimestamp !== undefined)
        this.#podDeleted({ type, pod, old });
      else this.#podChanged({ type, pod, old });
    });
  }

  run(): void {
    this.#loop.run();
    this.#orphans.run();
    for (const job of this.#opts.jobs.list()) this.#loop.queue.add(keyOf(job));
  }

  async close(): Promise<void> {
    for (const timer of this.#timers.values()) timer.cancel();
    this.#timers.clear();
    await Promise.all([this.#loop.close(), this.#orphans.close()]);
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

  /** resolveControllerRef: the Job the reference names, when it is still that Job. */
  #resolve(namespace: string, ref: OwnerReference | undefined): Job | undefined {
    if (ref?.kind !== jobKind.kind) return undefined;
    const job = this.#opts.jobs.get(`${namespace}/${ref.name}`);
    return job?.metadata?.uid === ref.uid ? job : undefined;
  }

  /** The jobs in the pod's namespace whose selector matches it (an orphan they may adopt). */
  #matchingJobs(pod: Pod): Job[] {
    return this.#opts.jobs.list(pod.metadata?.namespace ?? '').filter((job) => {
      const sel = labelSelectorAsSelector(job.spec?.selector);
      return sel.ok && !sel.selector.empty() && sel.selector.matches(pod.metadata?.labels ?? {});
    });
  }

  // As addPod and updatePod for a pod not being deleted.
  #podChanged(e: { type: InformerEventType; pod: Pod; old: Pod | undefined }): void {
    const { type, pod, old } = e;
    const ns = pod.metadata?.namespace ?? '';
    const uid = pod.metadata?.uid ?? '';
    const ref = controllerRefOf(pod);
    const oldRef = old === undefined ? undefined : controllerRefOf(old);
    const refChanged = type === 'MODIFIED' && JSON.stringify(ref) !== JSON.stringify(oldRef);
    // The old record may have dropped the finalizer too, when updates were merged into one event.
    const removed = !hasTrackingFinalizer(pod);
    if (refChanged) {
      const previous = this.#resolve(ns, oldRef);
      if (previous !== undefined) {
        if (removed) this.#finalizers.removalObserved(keyOf(previous), uid);
        this.#loop.queue.add(keyOf(previous));
      }
    }
    if (ref !== undefined) {
      const job = this.#resolve(ns, ref);
      if (job === undefined) return;
      const key = keyOf(job);
      if (type === 'ADDED') observePod(this.#expectations, key, { type, pod, old });
      else if (removed) this.#finalizers.removalObserved(key, uid);
      this.#loop.queue.add(key);
      return;
    }
    if (hasTrackingFinalizer(pod)) this.#orphans.queue.add(keyOf(pod));
    const labelsChanged = JSON.stringify(pod.metadata?.labels) !== JSON.stringify(old?.metadata?.labels);
    if (type === 'ADDED' || labelsChanged || refChanged)
      for (const job of this.#matchingJobs(pod)) this.#loop.queue.add(keyOf(job));
  }

  // As deletePod: `final` when the pod is gone, else it was marked for deletion.
  #podDeleted(e: { type: InformerEventType; pod: Pod; old: Pod | undefined }): void {
    const { pod } = e;
    const final = e.type === 'DELETED';
    const held = hasTrackingFinalizer(pod);
    const ref = controllerRefOf(pod);
    const job = this.#resolve(pod.metadata?.namespace ?? '', ref);
    if (job === undefined || isFinished(job)) {
      // No sync of a Job will remove this finalizer.
      if (held && !final) this.#orphans.queue.add(keyOf(pod));
      return;
    }
    const key = keyOf(job);
    observePod(this.#expectations, key, e);
    if (final || !held) this.#finalizers.removalObserved(key, pod.metadata?.uid ?? '');
    this.#loop.queue.add(key);
  }

  /** cleanupPodFinalizers: the Job's pods that still carry the finalizer go to the orphan queue. */
  #cleanupPodFinalizers(job: Job): void {
    const sel = labelSelectorAsSelector(job.spec?.selector);
    if (!sel.ok) return;
    for (const pod of this.#opts.pods.list(job.metadata?.namespace ?? '')) {
      if (!sel.selector.matches(pod.metadata?.labels ?? {}) || !hasTrackingFinalizer(pod)) continue;
      if (controllerRefOf(pod)?.uid === job.metadata?.uid) this.#orphans.queue.add(keyOf(pod));
    }
  }

  /** syncOrphanPod: the finalizer goes unless a Job that still runs (or another kind) controls the pod. */
  async #syncOrphanPod(key: string): Promise<void> {
    const pod = this.#opts.pods.get(key);
    if (pod === undefined || !hasTrackingFinalizer(pod)) return;
    const ref = controllerRefOf(pod);
    if (ref !== undefined) {
      if (ref.kind !== jobKind.kind || ref.apiVersion !== jobKind.apiVersion) return;
      const job = this.#resolve(pod.metadata?.namespace ?? '', ref);
      if (job !== undefined && (managedElsewhere(job) || !isFinished(job))) return;
    }
    await removeTrackingFinalizer(this.#opts.client, pod);
  }

  /** getPodsForJob: the pods the Job controls; an orphan it adopts gets the finalizer too. */
  async #podsForJob(job: Job): Promise<Pod[] | undefined> {
    const sel = labelSelectorAsSelector(job.spec?.selector);
    if (!sel.ok) return undefined;
    return claimObjects({
      client: this.#opts.client,
      path: '/v1/pods',
      owner: job,
      gvk: jobKind,
      selector: sel.selector,
      candidates: this.#opts.pods.list(job.metadata?.namespace ?? ''),
      finalizers: [jobTrackingFinalizer],
    });
  }

  async #sync(key: string): Promise<void> {
    const shared = this.#opts.jobs.get(key);
    if (shared === undefined) {
      this.#expectations.forget(key);
      this.#finalizers.forget(key);
      this.#backoffs.remove(key);
      return;
    }
    if (managedElsewhere(shared)) return;
    if (isFinished(shared)) {
      this.#backoffs.remove(key);
      return;
    }
    // Checked before the pods are read, so a pod that appears meanwhile waits for the next sync.
    const satisfied = this.#expectations.satisfied(key);
    const pods = await this.#podsForJob(shared);
    if (pods === undefined) return;
    const now = this.#opts.clock.now();
    const ctx = newSyncContext(copyOf(shared), {
      key,
      pods,
      expectedRemovals: this.#finalizers.expected(key),
      backoffs: this.#backoffs,
    });
    const { job } = ctx;
    const status = (job.status ??= {});
    const suspended = job.spec?.suspend === true;
    if (status.startTime === undefined && !suspended) status.startTime = rfc3339(now);
    ctx.finished = failureCondition(job, { pods, failed: ctx.failed, now });
    const left = deadlineLeft(job, now);
    if (ctx.finished === undefined && left !== undefined) this.#syncAfter(key, left);
    ctx.finished ??= indexedJobCondition(job, ctx);
    const before = { active: status.active ?? 0, ready: status.ready, terminating: status.terminating };
    let active: number;
    let failure: { readonly cause: unknown } | undefined;
    let conditionsChanged = false;
    if (ctx.finished !== undefined) {
      const r = await deleteActivePods(this.#opts.client, ctx.activePods);
      // Not finished yet while a pod could not be deleted or the cache may miss some.
      if (r.deleted !== ctx.activePods.length || !satisfied) ctx.finished = undefined;
      active = ctx.activePods.length - r.deleted;
      ctx.terminating += r.deleted;
      ctx.ready -= r.ready;
      failure = r.err;
    } else {
      const manage = satisfied && job.metadata?.deletionTimestamp === undefined;
      ({ active, failure, conditionsChanged } = await settleRunningJob(this.#manageDeps(key), ctx, manage));
    }
    const needsWrite =
      conditionsChanged ||
      active !== before.active ||
      ctx.ready !== before.ready ||
      ctx.terminating !== before.terminating;
    status.active = active;
    status.ready = ctx.ready;
    status.terminating = ctx.terminating;
    await trackJobStatus(
      {
        client: this.#opts.client,
        finalizers: this.#finalizers,
        backoffs: this.#backoffs,
        now: () => this.#opts.clock.now(),
        recorder: this.#opts.recorder,
      },
      ctx,
      needsWrite,
    );
    if (failure !== undefined) throw failure.cause;
  }

  #manageDeps(key: string): ManageDeps {
    return {
      client: this.#opts.client,
      expectations: this.#expectations,
      recorder: this.#opts.recorder,
      now: () => this.#opts.clock.now(),
      syncAfter: (ms) => {
        this.#syncAfter(key, ms);
      },
    };
  }
}
