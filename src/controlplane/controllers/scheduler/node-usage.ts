// What the pods bound to each node request (the scheduler cache's NodeInfo.Requested, and
// NonZeroRequested for scoring), and the pods themselves (for inter-pod affinity), kept up to date
// from pod events, with the pods the scheduler has bound but not yet seen bound (assumed).
import type { Pod } from '../../../api/core/v1/pod.js';
import { keyOf } from '../simulation/informer.js';
import { addResources, podNonZeroRequests, podRequests, type Resources } from './resources.js';

const onePod: Resources = new Map([['pods', 1000n]]);

/** What a pod takes of a node: its requests and one of the node's pod slots. */
export function podUsage(pod: Pod): Resources {
  const requests = podRequests(pod);
  addResources(requests, onePod);
  return requests;
}

export const isTerminal = (pod: Pod): boolean =>
  pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

const hasAntiAffinity = (pod: Pod): boolean =>
  (pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []).length > 0;

export class NodeUsage {
  readonly #byPod = new Map<string, { node: string; requests: Resources; nonZero: Resources; pod: Pod }>();
  readonly #byNode = new Map<string, Resources>();
  readonly #nonZeroByNode = new Map<string, Resources>();
  /** Each node's pods by key (NodeInfo.Pods). */
  readonly #podsByNode = new Map<string, Map<string, Pod>>();
  /** How many placed pods have required anti-affinity terms (NodeInfo.PodsWithRequiredAntiAffinity). */
  #withAntiAffinity = 0;

  used(node: string): Resources {
    return this.#byNode.get(node) ?? new Map<string, bigint>();
  }

  /** What the node's pods request, each container's missing cpu and memory at the scoring defaults. */
  nonZeroUsed(node: string): Resources {
    return this.#nonZeroByNode.get(node) ?? new Map<string, bigint>();
  }

  /** The pods placed on the node. */
  podsOn(node: string): Iterable<Pod> {
    return this.#podsByNode.get(node)?.values() ?? [];
  }

  /** Whether a placed pod has required anti-affinity terms (which every pod's placement must heed). */
  get anyAntiAffinity(): boolean {
    return this.#withAntiAffinity > 0;
  }

  /** The node the pod is counted on, if any. */
  nodeOf(key: string): string | undefined {
    return this.#byPod.get(key)?.node;
  }

  podCount(node: string): number {
    return Number((this.#byNode.get(node)?.get('pods') ?? 0n) / 1000n);
  }

  /** A pod as the informer reports it now (undefined: deleted). */
  observe(key: string, pod: Pod | undefined): void {
    const node = pod?.spec?.nodeName ?? '';
    if (pod === undefined || node === '' || isTerminal(pod)) {
      this.#remove(key);
      return;
    }
    const had = this.#byPod.get(key);
    if (had?.node === node) {
      // Its labels may have changed (its affinity may not: a pod's spec keeps it).
      had.pod = pod;
      this.#podsByNode.get(node)?.set(key, pod);
      return;
    }
    this.assume(pod, node);
  }

  /** The pod counted on `node` before its binding is seen. */
  assume(pod: Pod, node: string): void {
    const key = keyOf(pod);
    this.#remove(key);
    const requests = podUsage(pod);
    const nonZero = podNonZeroRequests(pod);
    this.#byPod.set(key, { node, requests, nonZero, pod });
    let pods = this.#podsByNode.get(node);
    if (pods === undefined) this.#podsByNode.set(node, (pods = new Map<string, Pod>()));
    pods.set(key, pod);
    if (hasAntiAffinity(pod)) this.#withAntiAffinity++;
    const used = this.#byNode.get(node) ?? new Map<string, bigint>();
    addResources(used, requests);
    this.#byNode.set(node, used);
    const nonZeroUsed = this.#nonZeroByNode.get(node) ?? new Map<string, bigint>();
    addResources(nonZeroUsed, nonZero);
    this.#nonZeroByNode.set(node, nonZeroUsed);
  }

  forget(key: string): void {
    this.#remove(key);
  }

  #remove(key: string): void {
    const had = this.#byPod.get(key);
    if (had === undefined) return;
    this.#byPod.delete(key);
    this.#podsByNode.get(had.node)?.delete(key);
    if (hasAntiAffinity(had.pod)) this.#withAntiAffinity--;
    const used = this.#byNode.get(had.node);
    if (used !== undefined) addResources(used, had.requests, -1n);
    const nonZeroUsed = this.#nonZeroByNode.get(had.node);
    if (nonZeroUsed !== undefined) addResources(nonZeroUsed, had.nonZero, -1n);
  }
}
