// Pod tracking with the batch.kubernetes.io/job-tracking finalizer (pkg/controller/job/
// job_controller.go and tracking_utils.go): a pod the Job controller made keeps the finalizer
// until its end is written into the Job's status, so a pod removed before then is still counted.
// A pod without it is one whose end the status already holds (or one the Job never tracked).
import type { Job } from '../../../api/batch/v1/job.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { indexOf, isIndexed } from './indexed.js';

/** batch.JobTrackingFinalizer. */
export const jobTrackingFinalizer = 'batch.kubernetes.io/job-tracking';

export const hasTrackingFinalizer = (pod: Pod): boolean =>
  (pod.metadata?.finalizers ?? []).includes(jobTrackingFinalizer);

/** The finalizers with the tracking one added at the end when missing. */
export const withTrackingFinalizer = (finalizers: readonly string[] | undefined): string[] =>
  (finalizers ?? []).includes(jobTrackingFinalizer)
    ? [...(finalizers ?? [])]
    : [...(finalizers ?? []), jobTrackingFinalizer];

/**
 * Only failed pods are replaced: podReplacementPolicy Failed (the default once a podFailurePolicy
 * is set) or any podFailurePolicy at all.
 */
export const onlyReplaceFailedPods = (job: Job): boolean =>
  job.spec?.podReplacementPolicy === 'Failed' || job.spec?.podFailurePolicy !== undefined;

/**
 * isPodFailed: a Failed pod, or, unless only failed pods are replaced, one being deleted before it
 * succeeded (an orphaned or evicted pod may never reach a terminal phase).
 */
export function isPodFailed(pod: Pod, job: Job): boolean {
  if (pod.status?.phase === 'Failed') return true;
  if (onlyReplaceFailedPods(job)) return false;
  return pod.metadata?.deletionTimestamp !== undefined && pod.status?.phase !== 'Succeeded';
}

/** A pod being deleted that has not reached a terminal phase (controller.CountTerminatingPods). */
export const isPodTerminating = (pod: Pod): boolean =>
  pod.metadata?.deletionTimestamp !== undefined &&
  pod.status?.phase !== 'Succeeded' &&
  pod.status?.phase !== 'Failed';

/** The UIDs of uncountedTerminatedPods, as sets. */
export interface UncountedSets {
  readonly succeeded: ReadonlySet<string>;
  readonly failed: ReadonlySet<string>;
}

export function uncountedOf(job: Job): UncountedSets {
  const u = job.status?.uncountedTerminatedPods;
  return { succeeded: new Set(u?.succeeded ?? []), failed: new Set(u?.failed ?? []) };
}

/**
 * getNewFinishedPods: the finished pods the status does not hold yet, those still carrying the
 * finalizer, in no uncounted list and not waiting for their finalizer removal to be seen; for an
 * Indexed Job, only pods with a valid index.
 */
export function newFinishedPods(
  job: Job,
  at: { pods: readonly Pod[]; uncounted: UncountedSets; expectedRemovals: ReadonlySet<string> },
): { readonly succeeded: Pod[]; readonly failed: Pod[] } {
  const completions = job.spec?.completions ?? 0;
  const untracked = (pod: Pod, uncounted: ReadonlySet<string>): boolean => {
    const uid = pod.metadata?.uid ?? '';
    if (!hasTrackingFinalizer(pod) || uncounted.has(uid) || at.expectedRemovals.has(uid)) return true;
    if (!isIndexed(job)) return false;
    const index = indexOf(pod);
    return index === undefined || index >= completions;
  };
  return {
    succeeded: at.pods.filter(
      (p) => !untracked(p, at.uncounted.succeeded) && p.status?.phase === 'Succeeded',
    ),
    failed: at.pods.filter((p) => !untracked(p, at.uncounted.failed) && isPodFailed(p, job)),
  };
}
