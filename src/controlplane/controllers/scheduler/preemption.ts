// kube-scheduler's DefaultPreemption (pkg/scheduler/framework/plugins/defaultpreemption and
// framework/preemption), the PostFilter that runs when no node fits a pod: on each node where only
// resolvable filters failed, the pods of lower priority are taken off; if the pod then fits, they
// are put back one at a time, most important first (those whose PodDisruptionBudget the eviction
// would break before the others), as long as it still fits; those that cannot go back are the node's
// victims. Of the nodes with victims, one is chosen by kube's order of criteria, its victims are
// deleted and the pod is nominated to it.
import type { Pod } from '../../../api/core/v1/pod.js';
import type { PodDisruptionBudget } from '../../../api/policy/v1/pod-disruption-budget.js';
import { labelSelectorAsSelector } from '../../../machinery/labels/meta-label-selector.js';
import type { NodeFit } from './filters.js';

export const noVictims = 'No preemption victims found for incoming pod';
export const notHelpful = 'Preemption is not helpful for scheduling';
export const neverPreempts = 'not eligible due to preemptionPolicy=Never.';
export const victimTerminating = 'not eligible due to a terminating pod on the nominated node.';

/** The DisruptionTarget condition's reason on a pod deleted to make room (PodReasonPreemptionByScheduler). */
export const preemptionReason = 'PreemptionByScheduler';

/** corev1helpers.PodPriority: the admitted priority, 0 without. */
export const podPriority = (pod: Pod): number => pod.spec?.priority ?? 0;

/** GetPodStartTime: when the kubelet started it, else (not started yet) now. */
const startTime = (pod: Pod, now: number): number => {
  const started = pod.status?.startTime;
  return started === undefined ? now : Date.parse(started);
};

/** MoreImportantPod: higher priority, then the one started earlier. */
export function moreImportant(a: Pod, b: Pod, now: number): boolean {
  const pa = podPriority(a);
  const pb = podPriority(b);
  if (pa !== pb) return pa > pb;
  return startTime(a, now) < startTime(b, now);
}

/** Whether the pod is going away because a scheduler preempted it (podTerminatingByPreemption). */
export function terminatingByPreemption(pod: Pod): boolean {
  if (pod.metadata?.deletionTimestamp === undefined) return false;
  const target = pod.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
  return target?.status === 'True' && target.reason === preemptionReason;
}

/**
 * PodEligibleToPreemptOthers: why the pod may not preempt, or undefined when it may. A pod already
 * nominated to a node where a pod it preempted is still terminating waits for it, unless that node
 * no longer suits it at all.
 */
export function ineligibility(
  pod: Pod,
  nominated: { unresolvable: boolean; pods: Iterable<Pod> } | undefined,
): string | undefined {
  if (pod.spec?.preemptionPolicy === 'Never') return neverPreempts;
  if (nominated === undefined || nominated.unresolvable) return undefined;
  const priority = podPriority(pod);
  for (const other of nominated.pods)
    if (podPriority(other) < priority && terminatingByPreemption(other)) return victimTerminating;
  return undefined;
}

export interface Victims {
  /** Most important first. */
  readonly pods: readonly Pod[];
  /** How many of them their PodDisruptionBudgets do not allow to go. */
  readonly pdbViolations: number;
}

/**
 * filterPodsWithPDBViolation: the pods (in the order given) whose eviction, counted against each
 * matching budget's disruptionsAllowed in turn, would take a budget below zero, and the others. A
 * pod a budget already counts as disrupted does not count again.
 */
function splitByBudget(
  pods: readonly Pod[],
  budgets: readonly PodDisruptionBudget[],
): { violating: Pod[]; others: Pod[] } {
  const allowed = budgets.map((b) => b.status?.disruptionsAllowed ?? 0);
  const selectors = budgets.map((b) => {
    const parsed = labelSelectorAsSelector(b.spec?.selector);
    return parsed.ok && !parsed.selector.empty() ? parsed.selector : undefined;
  });
  const violating: Pod[] = [];
  const others: Pod[] = [];
  for (const pod of pods) {
    let violated = false;
    const labels = pod.metadata?.labels ?? {};
    if (Object.keys(labels).length > 0) {
      for (let i = 0; i < budgets.length; i++) {
        const budget = budgets[i];
        const selector = selectors[i];
        if (budget === undefined || selector === undefined) continue;
        if (budget.metadata?.namespace !== pod.metadata?.namespace) continue;
        if (!selector.matches(labels)) continue;
        if (Object.hasOwn(budget.status?.disruptedPods ?? {}, pod.metadata?.name ?? '')) continue;
        allowed[i] = (allowed[i] ?? 0) - 1;
        if ((allowed[i] ?? 0) < 0) violated = true;
      }
    }
    (violated ? violating : others).push(pod);
  }
  return { violating, others };
}

/**
 * SelectVictimsOnNode: the fewest pods of lower priority than `pod` on the node whose removal lets
 * it fit, or why there are none (no such pods, or what still fails without any of them).
 */
export interface VictimSearch {
  readonly pod: Pod;
  readonly podsOnNode: readonly Pod[];
  /** The filters on the node as if only these pods were on it. */
  readonly fitsWith: (remaining: readonly Pod[]) => NodeFit;
  readonly budgets: readonly PodDisruptionBudget[];
  readonly now: number;
}

export function selectVictimsOnNode({
  pod,
  podsOnNode,
  fitsWith,
  budgets,
  now,
}: VictimSearch): Victims | NodeFit {
  const priority = podPriority(pod);
  const potential = podsOnNode.filter((p) => podPriority(p) < priority);
  if (potential.length === 0) return { reasons: [noVictims], unresolvable: true };
  const remaining = new Set(podsOnNode.filter((p) => podPriority(p) >= priority));
  const without = fitsWith([...remaining]);
  if (without.reasons.length > 0) return without;
  potential.sort((a, b) => (moreImportant(a, b, now) ? -1 : moreImportant(b, a, now) ? 1 : 0));
  const { violating, others } = splitByBudget(potential, budgets);
  const victims: Pod[] = [];
  let pdbViolations = 0;
  const reprieve = (p: Pod): boolean => {
    remaining.add(p);
    if (fitsWith([...remaining]).reasons.length === 0) return true;
    remaining.delete(p);
    victims.push(p);
    return false;
  };
  for (const p of violating) if (!reprieve(p)) pdbViolations++;
  for (const p of others) reprieve(p);
  if (violating.length > 0 && others.length > 0)
    victims.sort((a, b) => (moreImportant(a, b, now) ? -1 : moreImportant(b, a, now) ? 1 : 0));
  return { pods: victims, pdbViolations };
}

/**
 * pickOneNodeForPreemption: fewest PDB violations, then the lowest highest victim priority, the
 * smallest sum of priorities, the fewest victims, the latest start among the most important victims;
 * then the first node.
 */
export function pickOneNode(candidates: ReadonlyMap<string, Victims>, now: number): string | undefined {
  let nodes = [...candidates.keys()];
  const victimsOf = (node: string): Victims => candidates.get(node) ?? { pods: [], pdbViolations: 0 };
  const scores: ((node: string) => number)[] = [
    (node) => -victimsOf(node).pdbViolations,
    (node) => {
      const first = victimsOf(node).pods[0];
      return first === undefined ? 0 : -podPriority(first);
    },
    // Every priority raised by 2^31 so that more pods of a negative priority weigh more.
    (node) => -victimsOf(node).pods.reduce((sum, p) => sum + podPriority(p) + 2 ** 31, 0),
    (node) => -victimsOf(node).pods.length,
    (node) => earliestStartOfHighest(victimsOf(node).pods, now),
  ];
  for (const score of scores) {
    let best = -Infinity;
    let kept: string[] = [];
    for (const node of nodes) {
      const s = score(node);
      if (s > best) {
        best = s;
        kept = [];
      }
      if (s === best) kept.push(node);
    }
    if (kept.length === 1) return kept[0];
    nodes = kept;
  }
  return nodes[0];
}

/** GetEarliestPodStartTime: the earliest start among the victims of the highest priority. */
function earliestStartOfHighest(victims: readonly Pod[], now: number): number {
  const first = victims[0];
  if (first === undefined) return -Infinity;
  const highest = Math.max(...victims.map(podPriority));
  return Math.min(...victims.filter((p) => podPriority(p) === highest).map((p) => startTime(p, now)));
}

/** The message a pod's scheduling failure gives for preemption (DefaultPreemption.PostFilter). */
export function preemptionMessage(detail: string): string {
  return `preemption: ${detail}`;
}
