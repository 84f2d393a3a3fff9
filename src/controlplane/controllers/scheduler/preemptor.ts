// DefaultPreemption's PostFilter as the simulated scheduler runs it: which pod may preempt, the
// dry run over the nodes where only resolvable filters failed (preemption.ts chooses the victims and
// the node), then prepareCandidate: the victims get DisruptionTarget and are deleted, and pods of
// lower priority nominated to that node lose their nomination.
import type { Node } from '../../../api/core/v1/node.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { PodDisruptionBudget } from '../../../api/policy/v1/pod-disruption-budget.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import { withDisruptionTarget } from '../disruption-target.js';
import type { EventRecorder } from '../event-recorder.js';
import { copyOf, type APIClient } from '../simulation/api-client.js';
import { rfc3339, type SimClock } from '../simulation/clock.js';
import { keyOf, splitKey, type Informer } from '../simulation/informer.js';
import { fitErrorMessage, type NodeFit } from './filters.js';
import type { Attempt, NodeFilter } from './node-filter.js';
import { podUsage, type NodeUsage } from './node-usage.js';
import type { Nominations } from './nominations.js';
import {
  ineligibility,
  notHelpful,
  pickOneNode,
  podPriority,
  preemptionMessage,
  preemptionReason,
  selectVictimsOnNode,
  type Victims,
} from './preemption.js';
import { addResources, type Resources } from './resources.js';

export interface PreemptorOptions {
  readonly client: APIClient;
  readonly usage: NodeUsage;
  readonly filter: NodeFilter;
  readonly nominations: Nominations;
  readonly budgets?: Informer<PodDisruptionBudget> | undefined;
  readonly clock: SimClock;
  readonly recorder?: EventRecorder | undefined;
  /** The scheduler's name, for a pod that names none. */
  readonly schedulerName: string;
}

/** What preemption adds to the FitError (empty when it preempted), and the pod's nomination. */
export interface PostFilterResult {
  readonly message: string;
  /** The node the pod is nominated to; '' clears a nomination; undefined leaves it as it is. */
  readonly nominate: string | undefined;
}

/** An event's reference to a pod. */
export const podRef = (
  pod: Pod,
): { kind: string; apiVersion: string; name: string; namespace: string; uid: string } => ({
  kind: 'Pod',
  apiVersion: 'v1',
  name: pod.metadata?.name ?? '',
  namespace: pod.metadata?.namespace ?? '',
  uid: pod.metadata?.uid ?? '',
});

export class Preemptor {
  readonly #opts: PreemptorOptions;

  constructor(opts: PreemptorOptions) {
    this.#opts = opts;
  }

  /** The PostFilter after `failed` (why each node failed); `attempt` undefined when a PreFilter failed. */
  async preempt(
    pod: Pod,
    after: { nodes: readonly Node[]; failed: ReadonlyMap<string, NodeFit>; attempt: Attempt | undefined },
  ): Promise<PostFilterResult> {
    const { nodes, failed, attempt } = after;
    const { usage } = this.#opts;
    const nominatedNode = pod.status?.nominatedNodeName ?? '';
    const why = ineligibility(
      pod,
      nominatedNode === ''
        ? undefined
        : {
            unresolvable: failed.get(nominatedNode)?.unresolvable === true,
            pods: usage.podsOn(nominatedNode),
          },
    );
    if (why !== undefined) return { message: preemptionMessage(why), nominate: undefined };
    const now = this.#opts.clock.now();
    const budgets = this.#opts.budgets?.list() ?? [];
    const statuses: NodeFit[] = [];
    const candidates = new Map<string, Victims>();
    for (const node of nodes) {
      const name = node.metadata?.name ?? '';
      const fit = failed.get(name);
      if (fit === undefined) continue;
      if (fit.unresolvable || attempt === undefined) {
        statuses.push({ reasons: [notHelpful], unresolvable: true });
        continue;
      }
      const found = selectVictimsOnNode({
        pod,
        podsOnNode: [...usage.podsOn(name)],
        fitsWith: (remaining) => this.#fitsWith(attempt, { node, nodes, remaining }),
        budgets,
        now,
      });
      if ('reasons' in found) statuses.push(found);
      else if (found.pods.length > 0) candidates.set(name, found);
    }
    const chosen = pickOneNode(candidates, now);
    const victims = chosen === undefined ? undefined : candidates.get(chosen);
    if (chosen === undefined || victims === undefined)
      return { message: preemptionMessage(fitErrorMessage(nodes.length, statuses)), nominate: '' };
    await this.#evict(pod, chosen, victims.pods);
    await this.#clearLowerNominations(pod, chosen);
    return { message: '', nominate: chosen };
  }

  /** The attempt's filters on the node as if only `remaining` of its pods were on it. */
  #fitsWith(
    attempt: Attempt,
    on: { node: Node; nodes: readonly Node[]; remaining: readonly Pod[] },
  ): NodeFit {
    const { node, nodes, remaining } = on;
    const { usage, filter, nominations } = this.#opts;
    const name = node.metadata?.name ?? '';
    const used: Resources = new Map();
    for (const p of remaining) addResources(used, podUsage(p));
    const placement = filter.placement(attempt.pod, nodes, (n) =>
      n === name ? remaining : [...usage.podsOn(n)],
    );
    return filter.fitOn(attempt, {
      node,
      used: nominations.withNominated(name, attempt.pod, used),
      placement,
    });
  }

  /** prepareCandidate: each victim gets DisruptionTarget (PreemptionByScheduler), then is deleted. */
  async #evict(pod: Pod, node: string, victims: readonly Pod[]): Promise<void> {
    const { client, clock, recorder } = this.#opts;
    const message = `${pod.spec?.schedulerName ?? this.#opts.schedulerName}: preempting to accommodate a higher priority pod`;
    for (const victim of victims) {
      const target = splitKey(keyOf(victim));
      try {
        const current = await client.get<Pod>('/v1/pods', target);
        const updated = withDisruptionTarget(current, {
          reason: preemptionReason,
          message,
          now: rfc3339(clock.now()),
        });
        if (updated !== undefined) await client.update('/v1/pods/status', updated);
        await client.delete('/v1/pods', target, {});
      } catch (err) {
        if (reasonForError(err) === 'NotFound') continue;
        throw err;
      }
      recorder?.event(podRef(victim), {
        type: 'Normal',
        reason: 'Preempted',
        message: `Preempted by pod ${pod.metadata?.uid ?? ''} on node ${node}`,
      });
    }
  }

  /** Pods of lower priority nominated to the node may no longer fit there: their nomination goes. */
  async #clearLowerNominations(pod: Pod, node: string): Promise<void> {
    const { client, nominations } = this.#opts;
    const priority = podPriority(pod);
    for (const [key, other] of nominations.on(node)) {
      if (podPriority(other) >= priority) continue;
      try {
        const current = await client.get<Pod>('/v1/pods', splitKey(key));
        if ((current.status?.nominatedNodeName ?? '') === '') continue;
        const updated = copyOf(current);
        delete updated.status?.nominatedNodeName;
        await client.update('/v1/pods/status', updated);
        nominations.track(key, updated);
      } catch (err) {
        if (reasonForError(err) !== 'NotFound') throw err;
      }
    }
  }
}
