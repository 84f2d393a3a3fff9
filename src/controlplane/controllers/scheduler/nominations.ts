// The waiting pods nominated to each node (their status.nominatedNodeName), as kube's nominator keeps
// them: the room a pod preempted for is its own against pods of no higher priority.
import type { Pod } from '../../../api/core/v1/pod.js';
import { keyOf } from '../simulation/informer.js';
import { podUsage } from './node-usage.js';
import { podPriority } from './preemption.js';
import { addResources, type Resources } from './resources.js';

export class Nominations {
  readonly #byNode = new Map<string, Map<string, Pod>>();
  readonly #nodeOf = new Map<string, string>();

  /** The pod as the informer (or the scheduler) sees it now; undefined once it no longer waits. */
  track(key: string, pod: Pod | undefined): void {
    const was = this.#nodeOf.get(key);
    if (was !== undefined) {
      const pods = this.#byNode.get(was);
      pods?.delete(key);
      if (pods?.size === 0) this.#byNode.delete(was);
      this.#nodeOf.delete(key);
    }
    const node = pod?.status?.nominatedNodeName ?? '';
    if (pod === undefined || node === '') return;
    let pods = this.#byNode.get(node);
    if (pods === undefined) this.#byNode.set(node, (pods = new Map<string, Pod>()));
    pods.set(key, pod);
    this.#nodeOf.set(key, node);
  }

  /** The pods nominated to the node, by key. */
  on(node: string): readonly (readonly [string, Pod])[] {
    return [...(this.#byNode.get(node) ?? [])];
  }

  /**
   * What the node's pods request, with the pods nominated to it that come before `pod` (their
   * priority no lower): RunFilterPluginsWithNominatedPods.
   */
  withNominated(node: string, pod: Pod, used: Resources): Resources {
    const nominated = this.#byNode.get(node);
    if (nominated === undefined) return used;
    const key = keyOf(pod);
    const priority = podPriority(pod);
    let total = used;
    for (const [other, p] of nominated) {
      if (other === key || podPriority(p) < priority) continue;
      if (total === used) total = new Map(used);
      addResources(total, podUsage(p));
    }
    return total;
  }
}
