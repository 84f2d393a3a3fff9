// The pod failure backoff of a Job with backoffLimitPerIndex (getPodsWithDelayedDeletionPerIndex in
// pkg/controller/job/indexed_job_utils.go, getRemainingTimePerIndex in backoff_utils.go): each
// index waits on its own failures, 10 s after its last failed pod finished, doubling with each of
// the index's failures up to 10 minutes. That last failed pod keeps its tracking finalizer (so it
// is neither counted nor removed) until its replacement exists, since the replacement's failure
// count annotation is read from it.
import type { Job } from '../../../api/batch/v1/job.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { finishedTime, remainingBackoff } from './backoff-record.js';
import { indexAbsoluteFailureCount } from './index-failures.js';
import { indexOf } from './indexed.js';
import { hasTrackingFinalizer, isPodFailed } from './tracking.js';

/**
 * Per index neither succeeded, failed nor running, the failed pod still tracked with the most
 * failures of its index (the latest one among equals): the pod its replacement takes over from.
 */
export function podsWithDelayedDeletion(
  job: Job,
  at: {
    pods: readonly Pod[];
    activePods: readonly Pod[];
    succeededIndexes: readonly number[];
    failedIndexes: readonly number[];
    expectedRemovals: ReadonlySet<string>;
  },
): Map<number, Pod> {
  const completions = job.spec?.completions ?? 0;
  const done = new Set([...at.succeededIndexes, ...at.failedIndexes]);
  for (const pod of at.activePods) {
    const i = indexOf(pod);
    if (i !== undefined) done.add(i);
  }
  const delayed = new Map<number, Pod>();
  for (const pod of at.pods) {
    if (!hasTrackingFinalizer(pod) || at.expectedRemovals.has(pod.metadata?.uid ?? '')) continue;
    const i = indexOf(pod);
    if (i === undefined || i >= completions || done.has(i) || !isPodFailed(pod, job)) continue;
    const last = delayed.get(i);
    const later =
      last === undefined ||
      (indexAbsoluteFailureCount(last) <= indexAbsoluteFailureCount(pod) &&
        finishedTime(pod) >= finishedTime(last));
    if (later) delayed.set(i, pod);
  }
  return delayed;
}

/** Milliseconds the index of `lastFailed` still waits at `now`; 0 for an index that never failed. */
export function remainingIndexBackoff(lastFailed: Pod | undefined, now: number): number {
  if (lastFailed === undefined) return 0;
  return remainingBackoff(
    {
      failuresAfterLastSuccess: indexAbsoluteFailureCount(lastFailed) + 1,
      lastFailureTime: finishedTime(lastFailed),
    },
    now,
  );
}

/**
 * getPodCreationInfoForIndependentIndexes: the indexes whose backoff is over; when none is, the
 * shortest wait among them instead.
 */
export function indexesReadyNow(
  indexes: readonly number[],
  at: { delayed: ReadonlyMap<number, Pod>; now: number },
): { readonly ready: number[]; readonly wait: number } {
  const ready: number[] = [];
  let wait: number | undefined;
  for (const i of indexes) {
    const left = remainingIndexBackoff(at.delayed.get(i), at.now);
    if (left === 0) ready.push(i);
    else if (wait === undefined || left < wait) wait = left;
  }
  return ready.length > 0 ? { ready, wait: 0 } : { ready, wait: wait ?? 0 };
}
