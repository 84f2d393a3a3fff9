// kube-scheduler's PodTopologySpread score (podtopologyspread/scoring.go): the fewer pods a
// constraint's selector matches in a node's domain, the higher the node scores. The pod's
// ScheduleAnyway constraints count; a pod without constraints of its own gets the system defaults
// (hostname with maxSkew 3, zone with maxSkew 5) over the selectors of the Services, ReplicaSets
// and StatefulSets that select or own it (DefaultSelector), and none when nothing does.
import type { Node } from '../../../api/core/v1/node.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { Selector } from '../../../machinery/labels/selector.js';
import {
  countMatching,
  includesNode,
  spreadConstraints,
  type SpreadConstraint,
} from './pod-topology-spread.js';

const hostnameKey = 'kubernetes.io/hostname';
const maxNodeScore = 100;

/** The system default constraints of the default profile, over the pod's default selector. */
function defaultConstraints(selector: Selector): SpreadConstraint[] {
  const base = { selector, minDomains: 1, honorAffinity: true, honorTaints: false };
  return [
    { ...base, maxSkew: 3, topologyKey: hostnameKey },
    { ...base, maxSkew: 5, topologyKey: 'topology.kubernetes.io/zone' },
  ];
}

export interface SpreadScoreInput {
  /** The nodes that passed the filters, to be scored. */
  readonly filtered: readonly Node[];
  /** Every node, whose pods count in their domains. */
  readonly all: readonly Node[];
  readonly podsOn: (node: string) => readonly Pod[];
  /** DefaultSelector: the labels of what selects or owns the pod; undefined or empty for none. */
  readonly defaultSelector: (pod: Pod) => Selector | undefined;
}

const hasKeys = (node: Node, constraints: readonly SpreadConstraint[]): boolean => {
  const labels = node.metadata?.labels ?? {};
  return constraints.every((c) => Object.hasOwn(labels, c.topologyKey));
};

/**
 * The normalized score of each filtered node, in their order; undefined when the pod has no soft
 * constraint (PreScore's Skip).
 */
export function podTopologySpreadScores(pod: Pod, input: SpreadScoreInput): number[] | undefined {
  const own = (pod.spec?.topologySpreadConstraints ?? []).length > 0;
  let constraints: SpreadConstraint[];
  if (own) constraints = spreadConstraints(pod, 'ScheduleAnyway');
  else {
    const selector = input.defaultSelector(pod);
    constraints = selector === undefined || selector.empty() ? [] : defaultConstraints(selector);
  }
  if (constraints.length === 0 || input.all.length === 0) return undefined;
  // The system defaults score nodes without a zone label by hostname alone.
  const requireAll = own;
  const { filtered } = input;
  const ignored = filtered.map((n) => requireAll && !hasKeys(n, constraints));
  // Each constraint's domains among the filtered nodes, counted over every node (per node for hostname).
  const counts = constraints.map(() => new Map<string, number>());
  filtered.forEach((node, i) => {
    if (ignored[i] === true) return;
    const labels = node.metadata?.labels ?? {};
    constraints.forEach((c, j) => {
      if (c.topologyKey !== hostnameKey) counts[j]?.set(labels[c.topologyKey] ?? '', 0);
    });
  });
  const weights = constraints.map((c, j) =>
    Math.log((c.topologyKey === hostnameKey ? ignored.filter((x) => !x).length : (counts[j]?.size ?? 0)) + 2),
  );
  const namespace = pod.metadata?.namespace ?? '';
  for (const node of input.all) {
    if (requireAll && !hasKeys(node, constraints)) continue;
    const labels = node.metadata?.labels ?? {};
    constraints.forEach((c, j) => {
      if (!includesNode(c, pod, node)) return;
      const domain = counts[j];
      const value = labels[c.topologyKey] ?? '';
      if (domain === undefined || !domain.has(value)) return;
      const n = countMatching(input.podsOn(node.metadata?.name ?? ''), c.selector, namespace);
      domain.set(value, (domain.get(value) ?? 0) + n);
    });
  }
  const raw = filtered.map((node, i) => {
    if (ignored[i] === true) return 0;
    const labels = node.metadata?.labels ?? {};
    let score = 0;
    constraints.forEach((c, j) => {
      const value = labels[c.topologyKey];
      if (value === undefined) return;
      const count =
        c.topologyKey === hostnameKey
          ? countMatching(input.podsOn(node.metadata?.name ?? ''), c.selector, namespace)
          : (counts[j]?.get(value) ?? 0);
      score += count * (weights[j] ?? 0) + (c.maxSkew - 1);
    });
    return Math.round(score);
  });
  let min = Number.MAX_SAFE_INTEGER;
  let max = 0;
  raw.forEach((s, i) => {
    if (ignored[i] === true) return;
    min = Math.min(min, s);
    max = Math.max(max, s);
  });
  return raw.map((s, i) => {
    if (ignored[i] === true) return 0;
    if (max === 0) return maxNodeScore;
    return Math.trunc((maxNodeScore * (max + min - s)) / max);
  });
}
