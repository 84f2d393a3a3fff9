// The delay before a Job replaces failed pods (pkg/controller/job/backoff_utils.go): 10 s after
// the first failure since the last success, doubling with each further one up to 10 minutes,
// counted from when the last failed pod finished. As kube does, the failures are kept in memory per
// Job and fed with the pods each sync newly finds finished: a counted pod may be gone since.
import type { Pod } from '../../../api/core/v1/pod.js';

const defaultBackoffMs = 10_000;
const maxBackoffMs = 600_000;

export interface BackoffRecord {
  readonly failuresAfterLastSuccess: number;
  /** When the last of those failures happened (ms since the epoch). */
  readonly lastFailureTime: number | undefined;
}

const none: BackoffRecord = { failuresAfterLastSuccess: 0, lastFailureTime: undefined };

export class BackoffStore {
  readonly #records = new Map<string, BackoffRecord>();

  /** The Job's record once the newly finished pods are taken in (not stored yet). */
  next(jobKey: string, finished: { succeeded: readonly Pod[]; failed: readonly Pod[] }): BackoffRecord {
    const old = this.#records.get(jobKey) ?? none;
    const failedAt = finished.failed.map(finishedTime).sort((a, b) => a - b);
    const lastFailure = failedAt.at(-1);
    if (finished.succeeded.length === 0) {
      if (lastFailure === undefined) return old;
      return {
        failuresAfterLastSuccess: old.failuresAfterLastSuccess + failedAt.length,
        lastFailureTime: lastFailure,
      };
    }
    // A success resets the count: only failures after the latest success count.
    const lastSuccess = Math.max(...finished.succeeded.map(finishedTime));
    const after = failedAt.filter((t) => t > lastSuccess);
    return { failuresAfterLastSuccess: after.length, lastFailureTime: after.at(-1) };
  }

  update(jobKey: string, record: BackoffRecord): void {
    this.#records.set(jobKey, record);
  }

  remove(jobKey: string): void {
    this.#records.delete(jobKey);
  }
}

/** Milliseconds still to wait at `now` before the Job may create pods again; 0 when none. */
export function remainingBackoff(record: BackoffRecord, now: number): number {
  const { failuresAfterLastSuccess: failures, lastFailureTime } = record;
  if (failures === 0 || lastFailureTime === undefined) return 0;
  let backoff = defaultBackoffMs;
  for (let i = 1; i < failures && backoff < maxBackoffMs; i++) backoff *= 2;
  return Math.max(0, Math.min(backoff, maxBackoffMs) - (now - lastFailureTime));
}

// As getFinishedTime: the containers' last finish, else Ready turning False, else the deletion
// less its grace period, else the creation.
export function finishedTime(p: Pod): number {
  const fromContainers = latestFinish(p);
  if (fromContainers !== undefined) return fromContainers;
  const ready = p.status?.conditions?.find((c) => c.type === 'Ready');
  if (ready?.status === 'False' && ready.lastTransitionTime !== undefined)
    return Date.parse(ready.lastTransitionTime);
  if (p.metadata?.deletionTimestamp !== undefined)
    return Date.parse(p.metadata.deletionTimestamp) - (p.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
  return Date.parse(p.metadata?.creationTimestamp ?? '') || 0;
}

function latestFinish(p: Pod): number | undefined {
  const sidecars = new Set(
    (p.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name),
  );
  const statuses = [
    ...(p.status?.containerStatuses ?? []),
    ...(p.status?.initContainerStatuses ?? []).filter((s) => sidecars.has(s.name)),
  ];
  let latest: number | undefined;
  for (const s of statuses) {
    const finishedAt = s.state?.terminated?.finishedAt;
    if (finishedAt === undefined) return undefined;
    const at = Date.parse(finishedAt);
    if (latest === undefined || at > latest) latest = at;
  }
  return latest;
}
