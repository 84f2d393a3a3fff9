// Indexed completion mode (pkg/controller/job/indexed_job_utils.go): each pod carries its completion
// index in an annotation and a label, gets JOB_COMPLETION_INDEX from that annotation and the
// hostname `<job>-<index>`; the job is complete once every index in [0, completions) succeeded,
// which status.completedIndexes writes as intervals ("0-2,4,6,7"), as status.failedIndexes does.
import type { Job } from '../../../api/batch/v1/job.js';
import type { Pod } from '../../../api/core/v1/pod.js';

export const completionIndexAnnotation = 'batch.kubernetes.io/job-completion-index';
export const completionIndexEnv = 'JOB_COMPLETION_INDEX';

export const isIndexed = (job: Job): boolean => job.spec?.completionMode === 'Indexed';

/** The pod's completion index; undefined when missing or not a number. */
export function indexOf(pod: Pod): number | undefined {
  const text = pod.metadata?.annotations?.[completionIndexAnnotation];
  if (text === undefined || !/^\d+$/.test(text)) return undefined;
  return Number(text);
}

/**
 * calculateSucceededIndexes: the indexes status.completedIndexes holds, and those with the indexes
 * of succeeded pods within [0, completions) added; `counted(pod)` says whether a pod's success is
 * yet to be counted (it still has the tracking finalizer). Both sorted.
 */
export function succeededIndexes(
  job: Job,
  at: { pods: readonly Pod[]; counted: (pod: Pod) => boolean },
): { readonly previous: number[]; readonly all: number[] } {
  const completions = job.spec?.completions ?? 0;
  const previous = parseIndexes(job.status?.completedIndexes ?? '', completions);
  const done = new Set<number>(previous);
  for (const pod of at.pods) {
    const i = indexOf(pod);
    if (pod.status?.phase === 'Succeeded' && i !== undefined && i < completions && at.counted(pod))
      done.add(i);
  }
  return { previous, all: [...done].sort((a, b) => a - b) };
}

/** An interval of indexes, both ends included. */
export type IndexInterval = readonly [first: number, last: number];

/** "0-2,4" as [[0, 2], [4, 4]], leaving out what is malformed and cutting what is ≥ completions. */
export function parseIndexIntervals(text: string, completions: number): IndexInterval[] {
  const out: IndexInterval[] = [];
  for (const part of text === '' ? [] : text.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (m === null) continue;
    const first = Number(m[1]);
    const last = Math.min(Number(m[2] ?? m[1]), completions - 1);
    if (first <= last) out.push([first, last]);
  }
  return out;
}

/** parseIndexesFromString: "0-2,4" as [0, 1, 2, 4], leaving out what is malformed or ≥ completions. */
export function parseIndexes(text: string, completions: number): number[] {
  const out = new Set<number>();
  for (const [first, last] of parseIndexIntervals(text, completions))
    for (let i = first; i <= last; i++) out.add(i);
  return [...out].sort((a, b) => a - b);
}

/** Sorted indexes as kube writes them: runs of three or more as `a-b` (a pair stays `a,b`), joined by commas. */
export function formatIndexes(indexes: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < indexes.length;) {
    const first = indexes[i] ?? 0;
    let last = first;
    while (indexes[i + 1] === last + 1) {
      last++;
      i++;
    }
    i++;
    if (first === last) parts.push(String(first));
    else parts.push(`${String(first)}${last === first + 1 ? ',' : '-'}${String(last)}`);
  }
  return parts.join(',');
}

/**
 * firstPendingIndexes: the lowest `count` indexes neither succeeded, failed, nor held by an active
 * pod, or by a terminating one (given only where a Job replaces failed pods alone).
 */
export function pendingIndexes(
  completions: number,
  taken: {
    succeeded: readonly number[];
    failed?: readonly number[] | undefined;
    active: readonly Pod[];
    terminating?: readonly Pod[] | undefined;
  },
  count: number,
): number[] {
  const busy = new Set<number>([...taken.succeeded, ...(taken.failed ?? [])]);
  for (const pod of [...taken.active, ...(taken.terminating ?? [])]) {
    const i = indexOf(pod);
    if (i !== undefined) busy.add(i);
  }
  const out: number[] = [];
  for (let i = 0; i < completions && out.length < count; i++) if (!busy.has(i)) out.push(i);
  return out;
}

/** The template's pod given its index: annotation, label, env and hostname. */
export function withIndex(pod: Pod, job: Job, index: number): Pod {
  const text = String(index);
  const meta = (pod.metadata ??= {});
  meta.generateName = `${job.metadata?.name ?? ''}-${text}-`;
  (meta.annotations ??= {})[completionIndexAnnotation] = text;
  (meta.labels ??= {})[completionIndexAnnotation] = text;
  const spec = (pod.spec ??= { containers: [] });
  spec.hostname ??= `${job.metadata?.name ?? ''}-${text}`;
  const env = {
    name: completionIndexEnv,
    valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${completionIndexAnnotation}']` } },
  };
  for (const c of [...(spec.initContainers ?? []), ...spec.containers])
    if (!(c.env ?? []).some((e) => e.name === completionIndexEnv)) c.env = [...(c.env ?? []), env];
  return pod;
}
