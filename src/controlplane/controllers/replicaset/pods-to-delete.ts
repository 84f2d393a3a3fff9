// Which pods a ReplicaSet scaling down deletes first (ActivePods' order in controller_utils.go):
// unassigned before assigned, Pending before Unknown before Running, not ready before ready,
// ready for less time before longer, more restarts before fewer, newer before older.
import type { Pod } from '../../../api/core/v1/pod.js';
import { memberOf } from '../../../machinery/json/set-member.js';
import { isPodReady } from '../simulation/controller-ref.js';

const phaseRank: Readonly<Record<string, number>> = { Pending: 0, Unknown: 1, Running: 2 };

const restarts = (p: Pod): number =>
  Math.max(0, ...(p.status?.containerStatuses ?? []).map((c) => c.restartCount));

const readySince = (p: Pod): number =>
  Date.parse(p.status?.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime ?? '') || 0;

function compare(a: Pod, b: Pod): number {
  const assigned = (p: Pod): number => ((p.spec?.nodeName ?? '') === '' ? 0 : 1);
  if (assigned(a) !== assigned(b)) return assigned(a) - assigned(b);
  const phase = (p: Pod): number => memberOf(phaseRank, p.status?.phase ?? 'Pending') ?? 0;
  if (phase(a) !== phase(b)) return phase(a) - phase(b);
  const ready = (p: Pod): number => (isPodReady(p) ? 1 : 0);
  if (ready(a) !== ready(b)) return ready(a) - ready(b);
  if (ready(a) === 1 && readySince(a) !== readySince(b)) return readySince(b) - readySince(a);
  if (restarts(a) !== restarts(b)) return restarts(b) - restarts(a);
  const created = (p: Pod): number => Date.parse(p.metadata?.creationTimestamp ?? '') || 0;
  return created(b) - created(a);
}

export function podsToDelete(pods: readonly Pod[], count: number): Pod[] {
  return [...pods].sort(compare).slice(0, count);
}
