// Which of a pod's tolerations hold it on a node with NoExecute taints, and for how long
// (v1helper.GetMatchingTolerations and getMinTolerationTime in pkg/controller/tainteviction).
import type { Taint } from '../../../api/core/v1/node.js';
import type { Toleration } from '../../../api/core/v1/pod.js';
import { tolerates } from '../scheduler/filters.js';

export interface MatchingTolerations {
  /** Every taint has a toleration. */
  readonly allTolerated: boolean;
  /** The first toleration found for each taint. */
  readonly used: readonly Toleration[];
}

export function matchingTolerations(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
): MatchingTolerations {
  const used: Toleration[] = [];
  for (const taint of taints) {
    const t = tolerations.find((x) => tolerates(x, taint));
    if (t === undefined) return { allTolerated: false, used: [] };
    used.push(t);
  }
  return { allTolerated: true, used };
}

/** The shortest tolerationSeconds in ms: 0 without tolerations, -1 when none of them runs out. */
export function minTolerationMs(used: readonly Toleration[]): number {
  if (used.length === 0) return 0;
  let min: number | undefined;
  for (const t of used) {
    if (t.tolerationSeconds === undefined) continue;
    if (t.tolerationSeconds <= 0) return 0;
    if (min === undefined || t.tolerationSeconds < min) min = t.tolerationSeconds;
  }
  return min === undefined ? -1 : min * 1000;
}

/** The NoExecute taints among a node's. */
export const noExecuteTaints = (taints: readonly Taint[] | undefined): Taint[] =>
  (taints ?? []).filter((t) => t.effect === 'NoExecute');
