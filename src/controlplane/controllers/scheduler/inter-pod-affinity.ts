// kube-scheduler's InterPodAffinity filter (pkg/scheduler/framework/plugins/interpodaffinity), for
// the required terms: a node fits a pod when, in each term's topology domain of the node (the nodes
// sharing its value of the term's topologyKey),
// - some placed pod matches all of the pod's affinity terms (or none matches anywhere and the pod
//   matches its own terms: the first of a group that attracts itself),
// - no placed pod matches one of the pod's anti-affinity terms,
// - and no placed pod has an anti-affinity term that the pod matches.
// A term selects pods by its labelSelector in its namespaces: those it lists and those its
// namespaceSelector selects, or the pod's own when it gives neither.
import type { Namespace } from '../../../api/core/v1/namespace.js';
import type { Node } from '../../../api/core/v1/node.js';
import type { PodAffinityTerm } from '../../../api/core/v1/affinity.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { labelSelectorAsSelector } from '../../../machinery/labels/meta-label-selector.js';
import { Selector } from '../../../machinery/labels/selector.js';

export const affinityRulesNotMatch = "node(s) didn't match pod affinity rules";
export const antiAffinityRulesNotMatch = "node(s) didn't match pod anti-affinity rules";
export const existingAntiAffinityRulesNotMatch = "node(s) didn't satisfy existing pods anti-affinity rules";

/** A pod on a node (bound, or assumed by the scheduler), with the node's labels. */
export interface PlacedPod {
  readonly pod: Pod;
  readonly nodeLabels: Readonly<Record<string, string>>;
}

export interface AffinityTerm {
  readonly namespaces: ReadonlySet<string>;
  /** Namespaces by their labels (namespaceSelector), when the term gives one. */
  readonly namespaceSelector: Selector | undefined;
  readonly selector: Selector;
  readonly topologyKey: string;
}

/** A term's selector; one that does not parse (validation refuses it) selects nothing. */
function selectorOf(s: PodAffinityTerm['labelSelector']): Selector {
  const parsed = labelSelectorAsSelector(s);
  return parsed.ok ? parsed.selector : Selector.nothing();
}

/** The terms of `owner` (GetNamespacesFromPodAffinityTerm: its own namespace when none is named). */
export function termsOf(owner: Pod, terms: readonly PodAffinityTerm[] | undefined): AffinityTerm[] {
  return (terms ?? []).map((t) => {
    const listed = t.namespaces ?? [];
    const namespaces =
      listed.length === 0 && t.namespaceSelector === undefined
        ? new Set([owner.metadata?.namespace ?? ''])
        : new Set(listed);
    return {
      namespaces,
      namespaceSelector: t.namespaceSelector === undefined ? undefined : selectorOf(t.namespaceSelector),
      selector: selectorOf(t.labelSelector),
      topologyKey: t.topologyKey ?? '',
    };
  });
}

const affinityTerms = (pod: Pod): AffinityTerm[] =>
  termsOf(pod, pod.spec?.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution);
const antiAffinityTerms = (pod: Pod): AffinityTerm[] =>
  termsOf(pod, pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution);

/** The namespaces' labels, for the terms' namespaceSelectors. */
export type NamespaceLabels = (name: string) => Readonly<Record<string, string>> | undefined;

/** PodMatchesTermsNamespaceAndSelector. */
export function matchesTerm(pod: Pod, term: AffinityTerm, nsLabels: NamespaceLabels): boolean {
  const ns = pod.metadata?.namespace ?? '';
  const inNamespace =
    term.namespaces.has(ns) ||
    (term.namespaceSelector !== undefined && term.namespaceSelector.matches(nsLabels(ns) ?? {}));
  return inNamespace && term.selector.matches(pod.metadata?.labels ?? {});
}

const pairKey = (key: string, value: string): string => `${key}\u0000${value}`;

/**
 * The filter for one pod over the placed pods: a function from a node to its reason, or undefined
 * when the node fits. Undefined as a whole when neither the pod nor a placed pod has required terms
 * (PreFilter's Skip).
 */
export function interPodAffinityFilter(
  pod: Pod,
  placed: readonly PlacedPod[],
  nsLabels: NamespaceLabels,
): ((node: Node) => { reason: string; unresolvable: boolean } | undefined) | undefined {
  const affinity = affinityTerms(pod);
  const antiAffinity = antiAffinityTerms(pod);
  // Topology pairs where a placed pod's anti-affinity term selects the incoming pod.
  const existingAnti = new Set<string>();
  // Pairs of each affinity term's topology holding a pod that matches all the affinity terms, and
  // pairs holding a pod that matches one of the anti-affinity terms.
  const affinityCounts = new Map<string, number>();
  const antiCounts = new Set<string>();
  for (const { pod: other, nodeLabels } of placed) {
    for (const term of antiAffinityTerms(other)) {
      const value = nodeLabels[term.topologyKey];
      if (value !== undefined && matchesTerm(pod, term, nsLabels))
        existingAnti.add(pairKey(term.topologyKey, value));
    }
    if (affinity.length > 0 && affinity.every((t) => matchesTerm(other, t, nsLabels)))
      for (const t of affinity) {
        const value = nodeLabels[t.topologyKey];
        if (value !== undefined) {
          const k = pairKey(t.topologyKey, value);
          affinityCounts.set(k, (affinityCounts.get(k) ?? 0) + 1);
        }
      }
    for (const t of antiAffinity) {
      const value = nodeLabels[t.topologyKey];
      if (value !== undefined && matchesTerm(other, t, nsLabels))
        antiCounts.add(pairKey(t.topologyKey, value));
    }
  }
  if (affinity.length === 0 && antiAffinity.length === 0 && existingAnti.size === 0) return undefined;
  const selfAttracted = affinity.every((t) => matchesTerm(pod, t, nsLabels));
  return (node) => {
    const labels = node.metadata?.labels ?? {};
    // satisfyPodAffinity: every term's topology label on the node, and pods there, unless this is
    // the first pod of a group whose terms select itself.
    let podsExist = true;
    for (const t of affinity) {
      const value = labels[t.topologyKey];
      if (value === undefined) return { reason: affinityRulesNotMatch, unresolvable: true };
      if ((affinityCounts.get(pairKey(t.topologyKey, value)) ?? 0) <= 0) podsExist = false;
    }
    if (!podsExist && !(affinityCounts.size === 0 && selfAttracted))
      return { reason: affinityRulesNotMatch, unresolvable: true };
    for (const t of antiAffinity) {
      const value = labels[t.topologyKey];
      if (value !== undefined && antiCounts.has(pairKey(t.topologyKey, value)))
        return { reason: antiAffinityRulesNotMatch, unresolvable: false };
    }
    for (const [key, value] of Object.entries(labels))
      if (existingAnti.has(pairKey(key, value)))
        return { reason: existingAntiAffinityRulesNotMatch, unresolvable: false };
    return undefined;
  };
}

/** The labels of each namespace, for `interPodAffinityFilter`. */
export const namespaceLabelsOf =
  (get: (name: string) => Namespace | undefined): NamespaceLabels =>
  (name) =>
    get(name)?.metadata?.labels;
