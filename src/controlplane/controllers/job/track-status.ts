// trackJobStatusAndRemoveFinalizers, flushUncountedAndRemoveFinalizers and enactJobFinished
// (pkg/controller/job/job_controller.go): the UIDs of newly finished pods (and an interim
// condition) are written first; then the pods' finalizers are removed; then those UIDs move into
// the counters and, once nothing is uncounted and no pod is terminating, the terminal condition is
// added, in a second write.
import type { Job } from '../../../api/batch/v1/job.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { EventNote, EventRecorder } from '../event-recorder.js';
import type { APIClient } from '../simulation/api-client.js';
import { rfc3339 } from '../simulation/clock.js';
import { objectRef } from '../simulation/pod-control.js';
import type { BackoffStore } from './backoff-record.js';
import type { FinalizerExpectations } from './finalizer-expectations.js';
import { formatIndexes, indexOf, isIndexed } from './indexed.js';
import { ensureCondition, jobCondition } from './job-conditions.js';
import { interimTypes, type FinishedCondition } from './job-status.js';
import { removeTrackingFinalizers } from './pod-finalizers.js';
import type { SyncJobContext } from './sync-context.js';
import { hasTrackingFinalizer } from './tracking.js';
import { collectFinishedPods, countUncounted, uidOf } from './uncounted.js';

const jobKind = { apiVersion: 'batch/v1', kind: 'Job' } as const;

export interface TrackingDeps {
  readonly client: APIClient;
  readonly finalizers: FinalizerExpectations;
  readonly backoffs: BackoffStore;
  readonly now: () => number;
  readonly recorder: EventRecorder | undefined;
}

/** Writes the status the sync settled on, tracking the pods that finished; needsFlush: it changed. */
export async function trackJobStatus(
  deps: TrackingDeps,
  ctx: SyncJobContext,
  needsFlush: boolean,
): Promise<void> {
  const pods = isIndexed(ctx.job) ? [...ctx.pods].sort(byIndex) : ctx.pods;
  const withFinalizer = new Set(
    pods.filter((p) => hasTrackingFinalizer(p) && !ctx.expectedRemovals.has(uidOf(p))).map(uidOf),
  );
  let flush = countUncounted(ctx.job.status ?? {}, withFinalizer) || needsFlush;
  const found = collectFinishedPods(ctx, pods);
  flush ||= found.changed;
  if (isIndexed(ctx.job)) flush = indexesToStatus(ctx, found.newIndexes) || flush;
  flush = interimCondition(ctx, deps.now()) || flush;
  flush = await flushAndRemoveFinalizers(deps, { ctx, toRemove: found.toRemove, withFinalizer, flush });
  const finished = !found.reachedMax && enactJobFinished(ctx, deps.now());
  if (!finished && !flush) return;
  await writeStatus(deps, ctx);
  if (finished && ctx.finished !== undefined) recordFinished(deps, ctx.job, ctx.finished);
}

const byIndex = (a: Pod, b: Pod): number => (indexOf(a) ?? -1) - (indexOf(b) ?? -1);

/**
 * completedIndexes and succeeded from the succeeded indexes, and failedIndexes (only with
 * backoffLimitPerIndex, "" while none failed); whether they changed.
 */
function indexesToStatus(ctx: SyncJobContext, added: readonly number[]): boolean {
  const status = (ctx.job.status ??= {});
  ctx.succeededIndexes = [...new Set([...ctx.succeededIndexes, ...added])].sort((a, b) => a - b);
  const text = formatIndexes(ctx.succeededIndexes);
  let changed = text !== (status.completedIndexes ?? '');
  status.succeeded = ctx.succeededIndexes.length;
  status.completedIndexes = text;
  const failed = ctx.failedIndexes === undefined ? undefined : formatIndexes(ctx.failedIndexes);
  if (failed !== status.failedIndexes) {
    if (failed === undefined) delete status.failedIndexes;
    else status.failedIndexes = failed;
    changed = true;
  }
  return changed;
}

/**
 * A new FailureTarget or SuccessCriteriaMet goes into the first write, before any finalizer is
 * removed; ctx.finished becomes the terminal condition to add once the pods are counted.
 */
function interimCondition(ctx: SyncJobContext, now: number): boolean {
  const f = ctx.finished;
  if (f === undefined) return false;
  const status = (ctx.job.status ??= {});
  const conditions = (status.conditions ??= []);
  const at = rfc3339(now);
  if (f.type === 'FailureTarget') {
    conditions.push(jobCondition({ ...f, status: 'True' }, at));
    ctx.finished = { ...f, type: 'Failed' };
    return true;
  }
  if (f.type !== 'SuccessCriteriaMet') return false;
  ctx.finished = { ...f, type: 'Complete' };
  if (conditions.some((c) => c.type === interimTypes.success && c.status === 'True')) return false;
  conditions.push(jobCondition({ ...f, status: 'True' }, at));
  return true;
}

/**
 * flushUncountedAndRemoveFinalizers: writes what needs writing, removes the finalizers, and moves
 * the UIDs of the pods it could remove them from into the counters; when a removal failed, that
 * progress is written and the failure thrown. Whether the status still needs a write.
 */
async function flushAndRemoveFinalizers(
  deps: TrackingDeps,
  at: { ctx: SyncJobContext; toRemove: readonly Pod[]; withFinalizer: Set<string>; flush: boolean },
): Promise<boolean> {
  const { ctx } = at;
  let flush = at.flush;
  if (flush) {
    await writeStatus(deps, ctx);
    deps.backoffs.update(ctx.key, ctx.backoff);
    flush = false;
  }
  let failure: { readonly cause: unknown } | undefined;
  if (at.toRemove.length > 0) {
    const result = await removeTrackingFinalizers(
      { client: deps.client, expectations: deps.finalizers, jobKey: ctx.key },
      at.toRemove,
    );
    at.toRemove.forEach((p, i) => {
      if (result.removed[i] === true) at.withFinalizer.delete(uidOf(p));
    });
    failure = result.err;
  }
  flush = countUncounted(ctx.job.status ?? {}, at.withFinalizer) || flush;
  if (failure !== undefined) {
    if (flush) await writeStatus(deps, ctx);
    throw failure.cause;
  }
  return flush;
}

/**
 * enactJobFinished: the terminal condition (and completionTime) once no UID is uncounted and no
 * pod of the Job is terminating; whether it was added.
 */
function enactJobFinished(ctx: SyncJobContext, now: number): boolean {
  const f = ctx.finished;
  if (f === undefined) return false;
  const status = (ctx.job.status ??= {});
  const u = status.uncountedTerminatedPods;
  if ((u?.succeeded?.length ?? 0) + (u?.failed?.length ?? 0) > 0) return false;
  if (ctx.terminating > 0) return false;
  const at = rfc3339(now);
  status.conditions = ensureCondition(status.conditions ?? [], { ...f, status: 'True' }, at).conditions;
  if (f.type === 'Complete') status.completionTime = at;
  return true;
}

/** updateJobStatus; the written Job is worked on from then on. Pending events go out once written. */
async function writeStatus(deps: TrackingDeps, ctx: SyncJobContext): Promise<void> {
  ctx.job = await deps.client.update('batch/v1/jobs/status', ctx.job);
  for (const e of ctx.events.splice(0)) deps.recorder?.event(objectRef(ctx.job, jobKind), e);
}

// As recordJobFinished.
function recordFinished(deps: TrackingDeps, job: Job, f: FinishedCondition): void {
  const events: EventNote[] = [];
  if (f.type === 'Complete') {
    const completions = job.spec?.completions;
    if (completions !== undefined && (job.status?.succeeded ?? 0) > completions)
      events.push({
        type: 'Warning',
        reason: 'TooManySucceededPods',
        message: 'Too many succeeded pods running after completion count reached',
      });
    events.push({ type: 'Normal', reason: 'Completed', message: 'Job completed' });
  } else events.push({ type: 'Warning', reason: f.reason, message: f.message });
  for (const e of events) deps.recorder?.event(objectRef(job, jobKind), e);
}
