// The delay before a Job replaces failed pods (pkg/controller/job/backoff_utils.go): 10 s after
// the first failure since the last success, doubling with each further one up to 10 minutes,
// counted from when the last failed pod finished. Kube keeps the failures in memory as it counts
// them; here they are read off the Job's pods, which stay until the Job goes.
import type { Pod } from '../../../api/core/v1/pod.js';

const defaultBackoffMs = 10_000;
const maxBackoffMs = 600_000;

/** Milliseconds still to wait at `now` before the Job may create pods again; 0 when none. */
export function remainingBackoff(pods: readonly Pod[], now: number): number {
  const finished = pods
    .filter((p) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed')
    .map((p) => ({ failed: p.status?.phase === 'Failed', at: finishedTime(p) }))
    .sort((a, b) => a.at - b.at);
  let failures = 0;
  let lastFailure = 0;
  for (const p of finished) {
    if (!p.failed) {
      failures = 0;
      continue;
    }
    failures++;
    lastFailure = p.at;
  }
  if (failures === 0) return 0;
  let backoff = defaultBackoffMs;
  for (let i = 1; i < failures && backoff < maxBackoffMs; i++) backoff *= 2;
  return Math.max(0, Math.min(backoff, maxBackoffMs) - (now - lastFailure));
}

// As getFinishedTime: the containers' last finish, else Ready turning False, else the deletion
// less its grace period, else the creation.
function finishedTime(p: Pod): number {
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
