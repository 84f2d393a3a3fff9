// PodGC's gcTerminated (pkg/controller/podgc/gc_controller.go): past the threshold of terminated
// pods, the surplus is deleted. A pod is terminated when its phase is none of Pending, Running and
// Unknown (isPodTerminated: a pod without a phase counts too). Evicted pods go first, so that pods
// a controller ran to their end stay longer, then the oldest by creationTimestamp, names breaking
// ties (byEvictionAndCreationTimestamp).
import type { Pod } from '../../../api/core/v1/pod.js';

const running = new Set(['Pending', 'Running', 'Unknown']);

const isTerminated = (pod: Pod): boolean => !running.has(pod.status?.phase ?? '');

/** eviction.PodIsEvicted: Failed with reason Evicted. */
const isEvicted = (pod: Pod): boolean => pod.status?.phase === 'Failed' && pod.status.reason === 'Evicted';

/** A creationTimestamp in ms (RFC 3339 at second precision as kube writes it; unset is Go's zero time). */
const createdAt = (pod: Pod): number => {
  const t = pod.metadata?.creationTimestamp;
  const ms = t === undefined ? Number.NaN : Date.parse(t);
  return Number.isNaN(ms) ? -Infinity : ms;
};

function byEvictionAndCreation(a: Pod, b: Pod): number {
  const ea = isEvicted(a);
  if (ea !== isEvicted(b)) return ea ? -1 : 1;
  const ta = createdAt(a);
  const tb = createdAt(b);
  if (ta !== tb) return ta < tb ? -1 : 1;
  const na = a.metadata?.name ?? '';
  const nb = b.metadata?.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/**
 * The terminated pods to delete: as many as there are past `threshold`, in the order kube deletes
 * them. None when the threshold is 0 or below (the collector is off) or not passed.
 */
export function terminatedPodsToDelete(pods: readonly Pod[], threshold: number): Pod[] {
  if (threshold <= 0) return [];
  const terminated = pods.filter(isTerminated);
  const surplus = terminated.length - threshold;
  if (surplus <= 0) return [];
  return terminated.sort(byEvictionAndCreation).slice(0, surplus);
}
