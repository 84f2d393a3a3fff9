// status.uncountedTerminatedPods (trackJobStatusAndRemoveFinalizers and
// cleanUncountedPodsWithoutFinalizers in pkg/controller/job/job_controller.go): a finished pod's UID
// is written there first, its finalizer removed next, and only then is it moved into the
// succeeded or failed counter, so a crash between the steps neither loses nor counts a pod twice.
import type { JobStatus } from '../../../api/batch/v1/job.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { indexOf, isIndexed } from './indexed.js';
import { matchPodFailurePolicy } from './pod-failure-policy.js';
import type { SyncJobContext } from './sync-context.js';
import { hasTrackingFinalizer, isPodFailed } from './tracking.js';

/** MaxUncountedPods: keeps the lists near 20 KB and one sync from starving the others. */
export const maxUncountedPods = 500;

export const uidOf = (pod: Pod): string => pod.metadata?.uid ?? '';

/**
 * Moves the uncounted UIDs of pods that no longer carry the finalizer into the counters; whether
 * the status changed.
 */
export function countUncounted(status: JobStatus, withFinalizer: ReadonlySet<string>): boolean {
  const u = (status.uncountedTerminatedPods ??= {});
  let changed = false;
  for (const which of ['succeeded', 'failed'] as const) {
    const before = u[which] ?? [];
    const kept = before.filter((uid) => withFinalizer.has(uid));
    if (kept.length === before.length) continue;
    changed = true;
    status[which] = (status[which] ?? 0) + before.length - kept.length;
    u[which] = kept;
  }
  // Without its empty lists, as kube's omitempty writes them.
  if (u.succeeded?.length === 0) delete u.succeeded;
  if (u.failed?.length === 0) delete u.failed;
  return changed;
}

/** What the pass over the pods found. */
export interface FinishedPods {
  /** The pods whose finalizer may go now. */
  readonly toRemove: Pod[];
  /** Indexed Jobs: indexes newly succeeded. */
  readonly newIndexes: number[];
  /** The uncounted lists are full; the rest waits for the next sync. */
  readonly reachedMax: boolean;
  /** UIDs were added to the uncounted lists. */
  readonly changed: boolean;
}

/**
 * The pass of trackJobStatusAndRemoveFinalizers: each pod still tracked that may let go of its
 * finalizer is listed, and its UID added to uncountedTerminatedPods when it succeeded or failed
 * (every pod not succeeded counts as failed once the Job fails). An Ignore rule's failures are
 * not counted; an Indexed Job counts successes by index, not UID.
 */
export function collectFinishedPods(ctx: SyncJobContext, pods: readonly Pod[]): FinishedPods {
  const { job } = ctx;
  const u = ((job.status ??= {}).uncountedTerminatedPods ??= {});
  const completions = job.spec?.completions ?? 0;
  const previous = new Set(ctx.previousIndexes);
  const failing = ctx.finished !== undefined && ctx.finished.type !== 'SuccessCriteriaMet';
  const out = { toRemove: [] as Pod[], newIndexes: [] as number[], reachedMax: false, changed: false };
  for (const pod of pods) {
    const uid = uidOf(pod);
    // A pod without the finalizer, or whose removal is on its way, was seen to by an earlier sync.
    if (!hasTrackingFinalizer(pod) || ctx.expectedRemovals.has(uid)) continue;
    const failed = isPodFailed(pod, job);
    if (!canRemoveFinalizer(ctx, pod, failed)) continue;
    out.toRemove.push(pod);
    const index = indexOf(pod);
    if (pod.status?.phase === 'Succeeded' && !ctx.uncounted.failed.has(uid)) {
      if (isIndexed(job)) {
        if (index !== undefined && index < completions && !previous.has(index)) {
          out.newIndexes.push(index);
          out.changed = true;
        }
      } else if (!ctx.uncounted.succeeded.has(uid)) {
        (u.succeeded ??= []).push(uid);
        out.changed = true;
      }
    } else if (failed || failing) {
      const validIndex = !isIndexed(job) || (index !== undefined && index < completions);
      if (!ctx.uncounted.failed.has(uid) && validIndex && matchPodFailurePolicy(job, pod).countFailed) {
        (u.failed ??= []).push(uid);
        out.changed = true;
      }
    }
    const total = out.newIndexes.length + (u.succeeded?.length ?? 0) + (u.failed?.length ?? 0);
    if (total >= maxUncountedPods) {
      out.reachedMax = true;
      break;
    }
  }
  return out;
}

/**
 * canRemoveFinalizer: anything goes once the Job is being deleted or has reached its end; else a
 * pod that succeeded, or one that failed unless its index's replacement is still to take its
 * failure count from it (backoffLimitPerIndex).
 */
function canRemoveFinalizer(ctx: SyncJobContext, pod: Pod, failed: boolean): boolean {
  if (ctx.job.metadata?.deletionTimestamp !== undefined || ctx.finished !== undefined) return true;
  if (pod.status?.phase === 'Succeeded') return true;
  if (!failed) return false;
  const index = indexOf(pod);
  const delayed = index === undefined ? undefined : ctx.delayedDeletion.get(index);
  return delayed === undefined || uidOf(delayed) !== uidOf(pod);
}
