// kube-scheduler's PodTopologySpread filter (pkg/scheduler/framework/plugins/podtopologyspread), for
// the pod's DoNotSchedule constraints: a node fits when, for each constraint, it has the constraint's
// topology label, and the pods its selector matches in the node's domain (the nodes sharing that
// label's value), the pod itself included when it matches, exceed the least populated domain by at
// most maxSkew. Domains are counted over the nodes that carry every constraint's label and pass
// the constraint's inclusion policies (the pod's node affinity honoured, taints ignored, unless the
// constraint says otherwise); with fewer domains than minDomains the least is taken as 0. Pods
// count in the pod's namespace, and not while terminating. matchLabelKeys add the pod's own values
// of those labels to the selector.
import type { LabelSelector } from '../../../api/meta/v1/label-selector.js';
import type { Node } from '../../../api/core/v1/node.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { TopologySpreadConstraint } from '../../../api/core/v1/pod-spec-parts.js';
import { labelSelectorAsSelector } from '../../../machinery/labels/meta-label-selector.js';
import { Selector } from '../../../machinery/labels/selector.js';
import { matchesNodeAffinity, untolerated } from './filters.js';

export const spreadConstraintsNotMatch = "node(s) didn't match pod topology spread constraints";
export const spreadLabelMissing = `${spreadConstraintsNotMatch} (missing required label)`;

export interface SpreadConstraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  readonly selector: Selector;
  readonly minDomains: number;
  readonly honorAffinity: boolean;
  readonly honorTaints: boolean;
}

/** The constraint's selector, with the pod's values of its matchLabelKeys required too. */
function selectorOf(c: TopologySpreadConstraint, podLabels: Readonly<Record<string, string>>): Selector {
  const keys = (c.matchLabelKeys ?? []).filter((k) => Object.hasOwn(podLabels, k));
  let selector: LabelSelector | undefined = c.labelSelector;
  if (keys.length > 0) {
    const required = keys.map((key) => ({ key, operator: 'In', values: [podLabels[key] ?? ''] }));
    selector = {
      ...c.labelSelector,
      matchExpressions: [...(c.labelSelector?.matchExpressions ?? []), ...required],
    };
  }
  const parsed = labelSelectorAsSelector(selector);
  return parsed.ok ? parsed.selector : Selector.nothing();
}

/** The pod's constraints of one kind, DoNotSchedule or ScheduleAnyway (filterTopologySpreadConstraints). */
export function spreadConstraints(pod: Pod, when: 'DoNotSchedule' | 'ScheduleAnyway'): SpreadConstraint[] {
  const labels = pod.metadata?.labels ?? {};
  return (pod.spec?.topologySpreadConstraints ?? [])
    .filter((c) => c.whenUnsatisfiable === when)
    .map((c) => ({
      maxSkew: c.maxSkew,
      topologyKey: c.topologyKey,
      selector: selectorOf(c, labels),
      minDomains: c.minDomains ?? 1,
      honorAffinity: (c.nodeAffinityPolicy ?? 'Honor') === 'Honor',
      honorTaints: (c.nodeTaintsPolicy ?? 'Ignore') === 'Honor',
    }));
}

/** The pod's DoNotSchedule constraints. */
export const hardSpreadConstraints = (pod: Pod): SpreadConstraint[] =>
  spreadConstraints(pod, 'DoNotSchedule');

/** matchNodeInclusionPolicies: whether the node's pods count for the constraint. */
export const includesNode = (c: SpreadConstraint, pod: Pod, node: Node): boolean =>
  (!c.honorAffinity || matchesNodeAffinity(pod, node)) &&
  (!c.honorTaints || untolerated(pod, node.spec?.taints ?? []) === undefined);

/** countPodsMatchSelector: the pods in the namespace the selector matches, terminating ones aside. */
export function countMatching(pods: readonly Pod[], selector: Selector, namespace: string): number {
  if (selector.empty()) return 0;
  let n = 0;
  for (const p of pods)
    if (
      p.metadata?.deletionTimestamp === undefined &&
      (p.metadata?.namespace ?? '') === namespace &&
      selector.matches(p.metadata?.labels ?? {})
    )
      n++;
  return n;
}

/**
 * The filter for one pod: a function from a node to its reason, or undefined when the node fits.
 * Undefined as a whole when the pod has no DoNotSchedule constraint (PreFilter's Skip).
 * `podsOn` gives the pods placed on a node.
 */
export function podTopologySpreadFilter(
  pod: Pod,
  nodes: readonly Node[],
  podsOn: (node: string) => readonly Pod[],
): ((node: Node) => { reason: string; unresolvable: boolean } | undefined) | undefined {
  const constraints = hardSpreadConstraints(pod);
  if (constraints.length === 0) return undefined;
  const namespace = pod.metadata?.namespace ?? '';
  // Matching pods by topology value, a map per constraint (TpValueToMatchNum).
  const domains = constraints.map((c) => ({ c, counts: new Map<string, number>() }));
  for (const node of nodes) {
    const labels = node.metadata?.labels ?? {};
    if (!constraints.every((c) => Object.hasOwn(labels, c.topologyKey))) continue;
    const pods = podsOn(node.metadata?.name ?? '');
    for (const { c, counts } of domains) {
      if (!includesNode(c, pod, node)) continue;
      const matching = countMatching(pods, c.selector, namespace);
      const value = labels[c.topologyKey] ?? '';
      counts.set(value, (counts.get(value) ?? 0) + matching);
    }
  }
  const minimums = domains.map(({ c, counts }) =>
    counts.size < c.minDomains ? 0 : Math.min(...counts.values()),
  );
  const podLabels = pod.metadata?.labels ?? {};
  return (node) => {
    const labels = node.metadata?.labels ?? {};
    for (const [i, { c, counts }] of domains.entries()) {
      const value = labels[c.topologyKey];
      if (value === undefined) return { reason: spreadLabelMissing, unresolvable: true };
      const self = c.selector.matches(podLabels) ? 1 : 0;
      const skew = (counts.get(value) ?? 0) + self - (minimums[i] ?? 0);
      if (skew > c.maxSkew) return { reason: spreadConstraintsNotMatch, unresolvable: false };
    }
    return undefined;
  };
}
