// The scheduler's choice among the nodes that fit: kube-scheduler's score plugins of the default
// profile, each scoring every node 0–100 (normalized as the plugin does), summed by the profile's
// weights: TaintToleration 3, NodeAffinity 2, InterPodAffinity 2, PodTopologySpread 2,
// NodeResourcesFit (LeastAllocated) 1, NodeResourcesBalancedAllocation 1, ImageLocality 1 (over the
// images nodes report in status.images). Where kube picks at random among the nodes of the highest
// sum, this scheduler takes the one with the fewest pods, then the first by name, so tests
// can predict it.
import type { WeightedPodAffinityTerm } from '../../../api/core/v1/affinity.js';
import type { Node } from '../../../api/core/v1/node.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { matchesNodeSelector } from '../node-selector.js';
import { tolerates } from './filters.js';
import {
  matchesTerm,
  termsOf,
  type NamespaceLabels,
  type PlacedPod,
  type AffinityTerm,
} from './inter-pod-affinity.js';
import { podTopologySpreadScores } from './pod-topology-spread-score.js';
import { imageLocalityScores } from './image-locality.js';
import { nodeAllocatable, podNonZeroRequests, podRequests, type Resources } from './resources.js';
import type { Selector } from '../../../machinery/labels/selector.js';

const maxNodeScore = 100;

/** A node that fits, with what its pods request as NodeInfo counts it. */
export interface ScoredNode {
  readonly node: Node;
  /** NodeInfo.Requested: the pods' requests. */
  readonly requested: Resources;
  /** NodeInfo.NonZeroRequested: the same with missing cpu and memory requests at their defaults. */
  readonly nonZeroRequested: Resources;
}

/** What the scores look at beyond the nodes that fit. */
export interface ScoreContext {
  /** Every node (not only those that fit), and the pods placed on each. */
  readonly nodes: readonly Node[];
  readonly podsOn: (node: string) => readonly Pod[];
  readonly nsLabels: NamespaceLabels;
  /** PodTopologySpread's DefaultSelector of a pod without constraints of its own. */
  readonly defaultSpreadSelector: (pod: Pod) => Selector | undefined;
}

/** One plugin's raw scores of the nodes, in their order, or undefined when it skips the pod. */
type Plugin = (pod: Pod, nodes: readonly ScoredNode[], ctx: ScoreContext) => number[] | undefined;

/** helper.DefaultNormalizeScore: scaled to the highest score (reversed: the lowest scores most). */
function normalizeToMax(scores: number[], reverse: boolean): number[] {
  const max = Math.max(0, ...scores);
  if (max === 0) return scores.map(() => (reverse ? maxNodeScore : 0));
  return scores.map((s) => {
    const scaled = Math.trunc((maxNodeScore * s) / max);
    return reverse ? maxNodeScore - scaled : scaled;
  });
}

/** TaintToleration: the node's PreferNoSchedule taints the pod does not tolerate, fewest best. */
const taintToleration: Plugin = (pod, nodes) => {
  // An empty effect tolerates every effect, PreferNoSchedule included.
  const tolerations = (pod.spec?.tolerations ?? []).filter(
    (t) => (t.effect ?? '') === '' || t.effect === 'PreferNoSchedule',
  );
  const counts = nodes.map(
    ({ node }) =>
      (node.spec?.taints ?? []).filter(
        (taint) => taint.effect === 'PreferNoSchedule' && !tolerations.some((t) => tolerates(t, taint)),
      ).length,
  );
  return normalizeToMax(counts, true);
};

/** NodeAffinity: the weights of the pod's preferred terms the node matches; skipped without any. */
const nodeAffinity: Plugin = (pod, nodes) => {
  const terms = pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
  if (terms.length === 0) return undefined;
  const sums = nodes.map(({ node }) =>
    terms.reduce(
      (sum, t) =>
        (t.weight ?? 0) !== 0 && matchesNodeSelector({ nodeSelectorTerms: [t.preference ?? {}] }, node)
          ? sum + (t.weight ?? 0)
          : sum,
      0,
    ),
  );
  return normalizeToMax(sums, false);
};

const scored = ['cpu', 'memory'] as const;

/** leastRequestedScore: the share of the node left free, 0 when the pod would overcommit it. */
function leastRequested(requested: bigint, capacity: bigint): number {
  if (capacity === 0n || requested > capacity) return 0;
  return Number(((capacity - requested) * BigInt(maxNodeScore)) / capacity);
}

/** NodeResourcesFit's LeastAllocated: cpu and memory left free (non-zero requests), averaged. */
const leastAllocated: Plugin = (pod, nodes) => {
  const own = podNonZeroRequests(pod);
  return nodes.map(({ node, nonZeroRequested }) => {
    const allocatable = nodeAllocatable(node);
    let sum = 0;
    let weights = 0;
    for (const name of scored) {
      const capacity = allocatable.get(name) ?? 0n;
      if (capacity === 0n) continue;
      sum += leastRequested((nonZeroRequested.get(name) ?? 0n) + (own.get(name) ?? 0n), capacity);
      weights++;
    }
    return weights === 0 ? 0 : Math.trunc(sum / weights);
  });
};

/**
 * NodeResourcesBalancedAllocation: how close the node's cpu and memory fractions in use stay to
 * each other with the pod (its requests as they are); skipped for a pod that requests neither.
 */
const balancedAllocation: Plugin = (pod, nodes) => {
  const own = podRequests(pod);
  if (scored.every((name) => (own.get(name) ?? 0n) === 0n)) return undefined;
  return nodes.map(({ node, requested }) => {
    const allocatable = nodeAllocatable(node);
    const fractions: number[] = [];
    for (const name of scored) {
      const capacity = allocatable.get(name) ?? 0n;
      if (capacity === 0n) continue;
      const used = Number((requested.get(name) ?? 0n) + (own.get(name) ?? 0n)) / Number(capacity);
      fractions.push(Math.min(used, 1));
    }
    let std = 0;
    if (fractions.length === 2) std = Math.abs(((fractions[0] ?? 0) - (fractions[1] ?? 0)) / 2);
    return Math.trunc((1 - std) * maxNodeScore);
  });
};

interface WeightedTerm {
  readonly term: AffinityTerm;
  readonly weight: number;
}

function weighted(owner: Pod, terms: readonly WeightedPodAffinityTerm[] | undefined): WeightedTerm[] {
  const list = terms ?? [];
  return termsOf(
    owner,
    list.map((t) => t.podAffinityTerm ?? {}),
  ).map((term, i) => ({ term, weight: list[i]?.weight ?? 0 }));
}

const hasAffinity = (pod: Pod): boolean => {
  const a = pod.spec?.affinity;
  return a?.podAffinity !== undefined || a?.podAntiAffinity !== undefined;
};

/**
 * InterPodAffinity: per topology domain, the weights of the pod's preferred terms that placed pods
 * match (anti-affinity counting against), of placed pods' preferred terms the pod matches, and 1 for
 * each placed pod's required affinity term the pod matches; a node scores its domains' sums,
 * scaled between the lowest and the highest. Skipped when no domain got a weight.
 */
const interPodAffinity: Plugin = (pod, nodes, ctx) => {
  const affinity = pod.spec?.affinity;
  const preferred = weighted(pod, affinity?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution);
  const preferredAnti = weighted(
    pod,
    affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution,
  );
  const own = preferred.length + preferredAnti.length > 0;
  const domains = new Map<string, Map<string, number>>();
  const add = (t: AffinityTerm, labels: Readonly<Record<string, string>>, weight: number): void => {
    const value = labels[t.topologyKey];
    if (value === undefined) return;
    let byValue = domains.get(t.topologyKey);
    if (byValue === undefined) domains.set(t.topologyKey, (byValue = new Map<string, number>()));
    byValue.set(value, (byValue.get(value) ?? 0) + weight);
  };
  const placed: PlacedPod[] = [];
  for (const node of ctx.nodes) {
    const nodeLabels = node.metadata?.labels ?? {};
    for (const other of ctx.podsOn(node.metadata?.name ?? '')) placed.push({ pod: other, nodeLabels });
  }
  for (const { pod: other, nodeLabels } of placed) {
    if ((!own && !hasAffinity(other)) || Object.keys(nodeLabels).length === 0) continue;
    for (const { term, weight } of preferred)
      if (matchesTerm(other, term, ctx.nsLabels)) add(term, nodeLabels, weight);
    for (const { term, weight } of preferredAnti)
      if (matchesTerm(other, term, ctx.nsLabels)) add(term, nodeLabels, -weight);
    const theirs = other.spec?.affinity;
    // The hard pod affinity weight's default.
    for (const term of termsOf(other, theirs?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution))
      if (matchesTerm(pod, term, ctx.nsLabels)) add(term, nodeLabels, 1);
    for (const { term, weight } of weighted(
      other,
      theirs?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution,
    ))
      if (matchesTerm(pod, term, ctx.nsLabels)) add(term, nodeLabels, weight);
    for (const { term, weight } of weighted(
      other,
      theirs?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution,
    ))
      if (matchesTerm(pod, term, ctx.nsLabels)) add(term, nodeLabels, -weight);
  }
  if (domains.size === 0) return undefined;
  const sums = nodes.map(({ node }) => {
    const labels = node.metadata?.labels ?? {};
    let sum = 0;
    for (const [key, byValue] of domains) {
      const value = labels[key];
      if (value !== undefined) sum += byValue.get(value) ?? 0;
    }
    return sum;
  });
  const [min, max] = [Math.min(...sums), Math.max(...sums)];
  return sums.map((s) => (max > min ? Math.trunc(maxNodeScore * ((s - min) / (max - min))) : 0));
};

/** PodTopologySpread: fewer matching pods in the node's domains, higher (pod-topology-spread-score.ts). */
const podTopologySpread: Plugin = (pod, nodes, ctx) =>
  podTopologySpreadScores(pod, {
    filtered: nodes.map((n) => n.node),
    all: ctx.nodes,
    podsOn: ctx.podsOn,
    defaultSelector: ctx.defaultSpreadSelector,
  });

/** ImageLocality: the sizes of the pod's images the node holds, spread-scaled (image-locality.ts). */
const imageLocality: Plugin = (pod, nodes, ctx) =>
  imageLocalityScores(
    pod,
    nodes.map((n) => n.node),
    ctx.nodes,
  );

const plugins: readonly (readonly [Plugin, number])[] = [
  [taintToleration, 3],
  [nodeAffinity, 2],
  [interPodAffinity, 2],
  [podTopologySpread, 2],
  [leastAllocated, 1],
  [balancedAllocation, 1],
  [imageLocality, 1],
];

/** Each node's weighted sum of the plugins' scores, in the nodes' order. */
export function scoreNodes(pod: Pod, nodes: readonly ScoredNode[], ctx: ScoreContext): number[] {
  const totals = nodes.map(() => 0);
  if (nodes.length === 0) return totals;
  for (const [plugin, weight] of plugins) {
    const scores = plugin(pod, nodes, ctx);
    if (scores === undefined) continue;
    for (let i = 0; i < totals.length; i++) totals[i] = (totals[i] ?? 0) + (scores[i] ?? 0) * weight;
  }
  return totals;
}

/** Whether node choice `a` goes before `b`: the higher score, then the fewer pods, then the name. */
function better(a: { node: string; score: number; pods: number }, b: typeof a): boolean {
  if (a.score !== b.score) return a.score > b.score;
  if (a.pods !== b.pods) return a.pods < b.pods;
  return a.node < b.node;
}

/**
 * The node to bind the pod to among those that fit: the one it preempted for when that fits
 * (evaluateNominatedNode), else the highest score; undefined when none fits.
 */
export function chooseNode(
  pod: Pod,
  fitting: readonly ScoredNode[],
  ctx: ScoreContext & { readonly podCount: (node: string) => number },
): string | undefined {
  const nominated = pod.status?.nominatedNodeName ?? '';
  if (nominated !== '' && fitting.some((f) => f.node.metadata?.name === nominated)) return nominated;
  const scores = scoreNodes(pod, fitting, ctx);
  let best: { node: string; score: number; pods: number } | undefined;
  for (let i = 0; i < fitting.length; i++) {
    const node = fitting[i]?.node.metadata?.name ?? '';
    const candidate = { node, score: scores[i] ?? 0, pods: ctx.podCount(node) };
    if (best === undefined || better(candidate, best)) best = candidate;
  }
  return best?.node;
}
