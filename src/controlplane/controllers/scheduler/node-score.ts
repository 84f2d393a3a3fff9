// The scheduler's choice among the nodes that fit (kube's NodeResourcesFit LeastAllocated score, much
// reduced): the most cpu and memory left free after the pod, then the fewest pods, then the name, so
// tests can predict it.
import type { Resources } from './resources.js';

/** The share of the node left free after the pod, over cpu and memory (LeastAllocated). */
export function freeShare(requests: Resources, used: Resources, allocatable: Resources): number {
  let share = 0;
  for (const name of ['cpu', 'memory']) {
    const total = Number(allocatable.get(name) ?? 0n);
    if (total <= 0) continue;
    share += (total - Number((used.get(name) ?? 0n) + (requests.get(name) ?? 0n))) / total;
  }
  return share;
}

/** Whether node choice `a` goes before `b`. */
export function better(a: { node: string; share: number; pods: number }, b: typeof a): boolean {
  if (a.share !== b.share) return a.share > b.share;
  if (a.pods !== b.pods) return a.pods < b.pods;
  return a.node < b.node;
}
