// Failures counted per index (spec.backoffLimitPerIndex; pkg/controller/job/indexed_job_utils.go):
// each pod of an Indexed Job carries how many pods of its index failed before it, in the
// job-index-failure-count annotation (failures an Ignore rule matched go to the ignored one). A
// failed pod whose count already reached backoffLimitPerIndex, or that matched a FailIndex rule,
// fails its index for good: status.failedIndexes holds it and no pod replaces it.
import type { Job } from '../../../api/batch/v1/job.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { indexOf, parseIndexes } from './indexed.js';
import { matchPodFailurePolicy } from './pod-failure-policy.js';
import { hasTrackingFinalizer, isPodFailed } from './tracking.js';

/** batch.JobIndexFailureCountAnnotation. */
export const indexFailureCountAnnotation = 'batch.kubernetes.io/job-index-failure-count';
/** batch.JobIndexIgnoredFailureCountAnnotation. */
export const indexIgnoredFailureCountAnnotation = 'batch.kubernetes.io/job-index-ignored-failure-count';

const maxInt32 = 2147483647;

export const hasBackoffLimitPerIndex = (job: Job): boolean => job.spec?.backoffLimitPerIndex !== undefined;

/** As parseInt32: a value that is no number, negative or beyond int32 counts as 0. */
function countIn(pod: Pod, annotation: string): number {
  const text = pod.metadata?.annotations?.[annotation];
  if (text === undefined || !/^[+-]?\d+$/.test(text)) return 0;
  const n = Number(text);
  return n < 0 || n > maxInt32 ? 0 : n;
}

/** getIndexFailureCount: the failures of the pod's index counted before it. */
export const indexFailureCount = (pod: Pod): number => countIn(pod, indexFailureCountAnnotation);

/** getIndexAbsoluteFailureCount: those plus the ignored ones. */
export const indexAbsoluteFailureCount = (pod: Pod): number =>
  countIn(pod, indexFailureCountAnnotation) + countIn(pod, indexIgnoredFailureCountAnnotation);

/** isIndexFailed: the pod failed and its index may not be tried again. */
export function isIndexFailed(job: Job, pod: Pod): boolean {
  if (!isPodFailed(pod, job)) return false;
  const match = matchPodFailurePolicy(job, pod);
  if (match.action === 'FailIndex') return true;
  return match.countFailed && indexFailureCount(pod) >= (job.spec?.backoffLimitPerIndex ?? 0);
}

/**
 * calculateFailedIndexes: the indexes status.failedIndexes holds, with those of the pods not
 * counted yet (still carrying the finalizer) that failed their index added; sorted.
 */
export function failedIndexesOf(job: Job, pods: readonly Pod[]): number[] {
  const completions = job.spec?.completions ?? 0;
  const failed = new Set(parseIndexes(job.status?.failedIndexes ?? '', completions));
  for (const pod of pods) {
    const i = indexOf(pod);
    if (i !== undefined && i < completions && hasTrackingFinalizer(pod) && isIndexFailed(job, pod))
      failed.add(i);
  }
  return [...failed].sort((a, b) => a - b);
}

/**
 * getNewIndexFailureCounts: the counts a pod replacing `replaced` (the last failed pod of its
 * index) starts with; both 0 for an index's first pod.
 */
export function newIndexFailureCounts(
  job: Job,
  replaced: Pod | undefined,
): { readonly failures: number; readonly ignored: number } {
  if (replaced === undefined) return { failures: 0, ignored: 0 };
  const failures = indexFailureCount(replaced);
  const ignored = countIn(replaced, indexIgnoredFailureCountAnnotation);
  return matchPodFailurePolicy(job, replaced).countFailed
    ? { failures: failures + 1, ignored }
    : { failures, ignored: ignored + 1 };
}

/** addIndexFailureCountAnnotation: the failure count always, the ignored one when not 0. */
export function withIndexFailureCounts(pod: Pod, job: Job, replaced: Pod | undefined): Pod {
  const { failures, ignored } = newIndexFailureCounts(job, replaced);
  const annotations = ((pod.metadata ??= {}).annotations ??= {});
  annotations[indexFailureCountAnnotation] = String(failures);
  if (ignored > 0) annotations[indexIgnoredFailureCountAnnotation] = String(ignored);
  return pod;
}
