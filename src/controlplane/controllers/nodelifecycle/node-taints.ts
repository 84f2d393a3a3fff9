// The taints the node lifecycle controller owns (pkg/controller/nodelifecycle and
// pkg/controller/util/node): NoSchedule taints mirroring node conditions (TaintNodesByCondition) and
// the NoExecute not-ready/unreachable taints that drive taint-based eviction.
import type { Node, NodeCondition, Taint } from '../../../api/core/v1/node.js';
import { memberOf } from '../../../machinery/json/set-member.js';

export const notReadyTaintKey = 'node.kubernetes.io/not-ready';
export const unreachableTaintKey = 'node.kubernetes.io/unreachable';
const unschedulableTaintKey = 'node.kubernetes.io/unschedulable';

export const notReadyNoExecute: Taint = { key: notReadyTaintKey, effect: 'NoExecute' };
export const unreachableNoExecute: Taint = { key: unreachableTaintKey, effect: 'NoExecute' };

/** nodeConditionToTaintKeyStatusMap: which condition status gives which NoSchedule taint. */
const conditionTaints: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Ready: { False: notReadyTaintKey, Unknown: unreachableTaintKey },
  MemoryPressure: { True: 'node.kubernetes.io/memory-pressure' },
  DiskPressure: { True: 'node.kubernetes.io/disk-pressure' },
  NetworkUnavailable: { True: 'node.kubernetes.io/network-unavailable' },
  PIDPressure: { True: 'node.kubernetes.io/pid-pressure' },
};

const conditionTaintKeys = new Set(Object.values(conditionTaints).flatMap((m) => Object.values(m)));

/** Taint.MatchTaint: the same key and effect. */
export const sameTaint = (a: Taint, b: Taint): boolean => a.key === b.key && a.effect === b.effect;

export const hasTaint = (node: Node, taint: Taint): boolean =>
  (node.spec?.taints ?? []).some((t) => sameTaint(t, taint));

/** The NoSchedule taints the node's conditions and unschedulable flag call for. */
export function wantedNoScheduleTaints(
  conditions: readonly NodeCondition[],
  unschedulable: boolean,
): Taint[] {
  const wanted: Taint[] = [];
  for (const c of conditions) {
    const byStatus = memberOf(conditionTaints, c.type);
    const key = byStatus === undefined ? undefined : memberOf(byStatus, c.status);
    if (key !== undefined) wanted.push({ key, effect: 'NoSchedule' });
  }
  if (unschedulable) wanted.push({ key: unschedulableTaintKey, effect: 'NoSchedule' });
  return wanted;
}

/** doNoScheduleTaintingPass's diff: what to add and remove among the controller's NoSchedule taints. */
export function noScheduleTaintChanges(node: Node): { add: Taint[]; remove: Taint[] } {
  const wanted = wantedNoScheduleTaints(node.status?.conditions ?? [], node.spec?.unschedulable === true);
  const owned = (node.spec?.taints ?? []).filter(
    (t) => t.effect === 'NoSchedule' && (t.key === unschedulableTaintKey || conditionTaintKeys.has(t.key)),
  );
  return {
    add: wanted.filter((w) => !owned.some((t) => sameTaint(t, w))),
    remove: owned.filter((t) => !wanted.some((w) => sameTaint(t, w))),
  };
}

/**
 * SwapNodeControllerTaint on a copy's taints: the ones to add (stamped with timeAdded) replace the
 * ones to remove; undefined when nothing changes.
 */
export function swappedTaints(
  node: Node,
  change: { add: readonly Taint[]; remove: readonly Taint[]; timeAdded: string },
): Taint[] | undefined {
  const current = node.spec?.taints ?? [];
  const kept = current.filter((t) => !change.remove.some((r) => sameTaint(t, r)));
  const added = change.add
    .filter((a) => !kept.some((t) => sameTaint(t, a)))
    .map((a) => ({ ...a, timeAdded: change.timeAdded }));
  if (added.length === 0 && kept.length === current.length) return undefined;
  return [...kept, ...added];
}
