// A scheduler for the simulated cluster (kube-scheduler's scheduleOne, much reduced): pending pods
// of default-scheduler are filtered against every node, bound through pods/binding to the least
// requested node that fits (ties to the node with fewer pods, then by name, so tests can predict
// it), and given PodScheduled=False/Unschedulable with kube's message when none fits, or when its
// claims are missing or not bound (volume-binding.ts), or held by another pod under
// ReadWriteOncePod (volume-restrictions.ts), or past a node's CSI volume limit (volume-limits.ts), or
// in another zone (volume-zone.ts), or its spread constraints
// (pod-topology-spread.ts) or required pod (anti-)affinity (inter-pod-affinity.ts) keep it off every
// node. When no node fits, a pod of higher priority preempts (preemption.ts): pods of lower priority
// on the node where the fewest and least important must go are deleted, and the pod is nominated to
// it, which keeps others of no higher priority from taking the room it made. Unschedulable pods are
// tried again when nodes, claims or volumes change, pods go away, a pod is placed that one of them
// may want beside it, and every flushIntervalMs.
import type { Namespace } from '../../../api/core/v1/namespace.js';
import type { Node } from '../../../api/core/v1/node.js';
import type { Binding } from '../../../api/core/v1/binding.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import type { Logger } from '../../../server/logging/logger.js';
import type { EventRecorder } from '../event-recorder.js';
import { copyOf, type APIClient } from '../simulation/api-client.js';
import { rfc3339, type SimClock } from '../simulation/clock.js';
import { keyOf, splitKey, type Informer } from '../simulation/informer.js';
import { WorkLoop } from '../simulation/work-loop.js';
import { matchesNodeSelector } from '../node-selector.js';
import { filterNode, fitErrorMessage, type NodeFit } from './filters.js';
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
import { withDisruptionTarget } from '../disruption-target.js';
import type { PodDisruptionBudget } from '../../../api/policy/v1/pod-disruption-budget.js';
import type { NodeSelector } from '../../../api/core/v1/persistent-volume.js';
import { interPodAffinityFilter, namespaceLabelsOf, type PlacedPod } from './inter-pod-affinity.js';
import { hardSpreadConstraints, podTopologySpreadFilter } from './pod-topology-spread.js';
import { hasReadWriteOncePodConflict, readWriteOncePodConflict } from './volume-restrictions.js';
import { volumeTopologies, volumeZoneConflict, volumeZoneFits, type VolumeTopology } from './volume-zone.js';
import {
  csiVolumesOf,
  exceedsVolumeLimits,
  maxVolumeCountExceeded,
  type DriverVolumes,
} from './volume-limits.js';
import type { CSINode } from '../../../api/storage/v1/csi-node.js';
import { isTerminal, NodeUsage, podUsage } from './node-usage.js';
import { addResources, nodeAllocatable, podRequests, type Resources } from './resources.js';
import {
  boundVolumeSelectors,
  delayedClaims,
  podVolumeBindings,
  preFilterMessage,
  selectedNode,
  volumeBindingReason,
  volumeNodeConflict,
  withSelectedNode,
  type VolumeLookup,
} from './volume-binding.js';
import type { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import { volumeBoundToClaim } from '../persistentvolume/volume-util.js';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import type { CSIDriver } from '../../../api/storage/v1/csi-driver.js';
import type { CSIStorageCapacity } from '../../../api/storage/v1/csi-storage-capacity.js';
import type { StorageClass } from '../../../api/storage/v1/storage-class.js';

export const defaultSchedulerName = 'default-scheduler';
const flushIntervalMs = 30_000;

export interface SchedulerOptions {
  readonly client: APIClient;
  readonly pods: Informer<Pod>;
  readonly nodes: Informer<Node>;
  /** Namespaces' labels, for pod affinity terms with a namespaceSelector (none selected without). */
  readonly namespaces?: Informer<Namespace>;
  /** The claims, volumes and classes a pod's volumes need (VolumeBinding); without them, not checked. */
  readonly claims?: Informer<PersistentVolumeClaim>;
  readonly volumes?: Informer<PersistentVolume>;
  readonly classes?: Informer<StorageClass>;
  /** The CSI drivers and the capacities they report, for claims to provision. */
  readonly csiDrivers?: Informer<CSIDriver>;
  readonly storageCapacities?: Informer<CSIStorageCapacity>;
  /** The nodes' CSINodes, whose drivers' allocatable counts limit the volumes a node attaches. */
  readonly csiNodes?: Informer<CSINode>;
  /** The PodDisruptionBudgets preemption would rather not break. */
  readonly budgets?: Informer<PodDisruptionBudget>;
  readonly clock: SimClock;
  readonly logger: Logger;
  readonly recorder?: EventRecorder;
}

/** Whether the pod waits for this scheduler. */
export const isPendingForScheduler = (pod: Pod): boolean =>
  (pod.spec?.nodeName ?? '') === '' &&
  (pod.spec?.schedulerName ?? defaultSchedulerName) === defaultSchedulerName &&
  pod.metadata?.deletionTimestamp === undefined &&
  !isTerminal(pod) &&
  (pod.spec?.schedulingGates ?? []).length === 0;

/** What one scheduling attempt checks every node against. */
interface Attempt {
  readonly pod: Pod;
  readonly requests: Resources;
  /** The node a claim of the pod is already bound to a volume on, if any. */
  readonly pinned: string | undefined;
  readonly volumeSelectors: readonly NodeSelector[];
  readonly delayed: ReturnType<typeof delayedClaims>;
  /** Its CSI volumes by driver (NodeVolumeLimits). */
  readonly csiVolumes: DriverVolumes;
  /** The zone and region labels of the volumes its claims are bound to (VolumeZone). */
  readonly volumeZones: readonly VolumeTopology[];
}

/** The pods placed on each node, and the filters that look at them beyond a node's own. */
interface Placement {
  readonly podsOn: (node: string) => readonly Pod[];
  /** VolumeRestrictions: another placed pod holds one of the pod's ReadWriteOncePod claims. */
  readonly readWriteOncePodConflict: boolean;
  readonly filters: readonly (
    ((node: Node) => { reason: string; unresolvable: boolean } | undefined) | undefined
  )[];
}

const fitsNode: NodeFit = { reasons: [], unresolvable: false };

/** The share of the node left free after the pod, over cpu and memory (LeastAllocated). */
function freeShare(requests: Resources, used: Resources, allocatable: Resources): number {
  let share = 0;
  for (const name of ['cpu', 'memory']) {
    const total = Number(allocatable.get(name) ?? 0n);
    if (total <= 0) continue;
    share += (total - Number((used.get(name) ?? 0n) + (requests.get(name) ?? 0n))) / total;
  }
  return share;
}

export class Scheduler {
  readonly #opts: SchedulerOptions;
  readonly #client: APIClient;
  readonly #loop: WorkLoop;
  readonly #usage = new NodeUsage();
  readonly #unschedulable = new Set<string>();
  /** The claims and classes pods' volumes need, when the scheduler was given them. */
  readonly #lookup: VolumeLookup | undefined;
  /**
   * Volumes this scheduler bound to a claim (kube's assume cache), as written, until the volumes'
   * informer shows them bound: a pod scheduled meanwhile does not count on one of them.
   */
  readonly #assumedVolumes = new Map<string, PersistentVolume>();
  /**
   * The waiting pods nominated to each node (their status.nominatedNodeName), as kube's nominator
   * keeps them: room they preempted for is theirs against pods of no higher priority.
   */
  readonly #nominated = new Map<string, Map<string, Pod>>();
  readonly #nominationOf = new Map<string, string>();
  /** Counts flushes: an attempt that began before one may have missed the room it made. */
  #moveCycle = 0;
  #cancelFlush: () => void = () => undefined;

  constructor(opts: SchedulerOptions) {
    this.#opts = opts;
    this.#client = opts.client.as('kube-scheduler');
    const { claims, volumes, classes, csiDrivers, storageCapacities } = opts;
    this.#lookup =
      claims === undefined
        ? undefined
        : {
            claim: (namespace, name) => claims.get(`${namespace}/${name}`),
            volume: (name) => this.#assumedVolumes.get(name) ?? volumes?.get(name),
            volumes: () => this.#withAssumed(volumes?.list() ?? []),
            storageClass: (name) => classes?.get(name),
            csiDriver: (name) => csiDrivers?.get(name),
            storageCapacities: () => storageCapacities?.list() ?? [],
          };
    this.#loop = new WorkLoop({ name: 'scheduler', logger: opts.logger, sync: (k) => this.#schedule(k) });
    opts.pods.addHandler((type, pod) => {
      const key = keyOf(pod);
      const wasOn = this.#usage.nodeOf(key);
      this.#usage.observe(key, type === 'DELETED' ? undefined : pod);
      this.#nominate(key, type === 'DELETED' ? undefined : pod);
      const isOn = this.#usage.nodeOf(key);
      if (isOn !== undefined && isOn !== wasOn) this.#placedPodAdded();
      if (type !== 'DELETED' && isPendingForScheduler(pod)) {
        if (!this.#unschedulable.has(key)) this.#loop.queue.add(key);
        return;
      }
      this.#unschedulable.delete(key);
      // A pod that went away or finished frees room on its node.
      if ((type === 'DELETED' || isTerminal(pod)) && (pod.spec?.nodeName ?? '') !== '') this.#flush();
    });
    opts.nodes.addHandler(() => {
      this.#flush();
    });
    // The informer catches up with a volume bound here once it shows the volume bound or gone.
    opts.volumes?.addHandler((type, pv) => {
      if (type === 'DELETED' || pv.spec?.claimRef !== undefined) this.#assumedVolumes.delete(keyOf(pv));
    });
    // A claim or volume created, bound or gone, or room reported for one, may let a pod that
    // waited for it in.
    for (const informer of [
      opts.claims,
      opts.volumes,
      opts.csiDrivers,
      opts.storageCapacities,
      opts.csiNodes,
    ])
      informer?.addHandler(() => {
        this.#flush();
      });
  }

  run(): void {
    this.#loop.run();
    for (const pod of this.#opts.pods.list())
      if (isPendingForScheduler(pod)) this.#loop.queue.add(keyOf(pod));
    this.#periodicFlush();
  }

  async close(): Promise<void> {
    this.#cancelFlush();
    await this.#loop.close();
  }

  #periodicFlush(): void {
    this.#cancelFlush = this.#opts.clock.after(flushIntervalMs, () => {
      this.#flush();
      this.#periodicFlush();
    });
  }

  /**
   * A pod is newly on a node (bound here, or seen bound): it may be what a waiting pod's required
   * pod affinity needs, or raise the least populated domain of its spread constraints (kube's
   * AssignedPodAdd event, which the plugins' hints limit to such pods), so the waiting pods are
   * tried again when one of them has such terms.
   */
  #placedPodAdded(): void {
    for (const key of this.#unschedulable) {
      const waiting = this.#opts.pods.get(key);
      if (waiting === undefined) continue;
      const affinity =
        waiting.spec?.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
      if (affinity.length > 0 || hardSpreadConstraints(waiting).length > 0) {
        this.#flush();
        return;
      }
    }
  }

  /** Moves every unschedulable pod back to the active queue. */
  #flush(): void {
    this.#moveCycle++;
    for (const key of this.#unschedulable) this.#loop.queue.add(key);
    this.#unschedulable.clear();
  }

  /** Keeps the nomination index up to date with a pod as the informer (or this scheduler) sees it. */
  #nominate(key: string, pod: Pod | undefined): void {
    const was = this.#nominationOf.get(key);
    if (was !== undefined) {
      const pods = this.#nominated.get(was);
      pods?.delete(key);
      if (pods?.size === 0) this.#nominated.delete(was);
      this.#nominationOf.delete(key);
    }
    const node = pod?.status?.nominatedNodeName ?? '';
    if (pod === undefined || node === '' || !isPendingForScheduler(pod)) return;
    let pods = this.#nominated.get(node);
    if (pods === undefined) this.#nominated.set(node, (pods = new Map<string, Pod>()));
    pods.set(key, pod);
    this.#nominationOf.set(key, node);
  }

  /**
   * What the node's pods request, with the pods nominated to it that come before `pod` (their
   * priority no lower): RunFilterPluginsWithNominatedPods.
   */
  #withNominated(node: string, pod: Pod, used: Resources): Resources {
    const nominated = this.#nominated.get(node);
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

  async #schedule(key: string): Promise<void> {
    const pod = this.#opts.pods.get(key);
    if (pod === undefined || !isPendingForScheduler(pod)) return;
    const cycle = this.#moveCycle;
    const nodes = this.#opts.nodes.list();
    const volumeReason = nodes.length === 0 ? undefined : this.#volumeReason(pod);
    if (volumeReason !== undefined) {
      // Every node is out for a PreFilter's reason: preemption cannot help anywhere.
      const unresolvable = new Map(
        nodes.map((n) => [n.metadata?.name ?? '', { reasons: [volumeReason], unresolvable: true }]),
      );
      const post = await this.#preempt(pod, { nodes, failed: unresolvable, attempt: undefined });
      await this.#markUnschedulable(key, pod, {
        message: preFilterMessage(nodes.length, volumeReason, post.message),
        nominate: post.nominate,
      });
      if (cycle !== this.#moveCycle) this.#flush();
      return;
    }
    const volumeSelectors = this.#lookup === undefined ? [] : boundVolumeSelectors(pod, this.#lookup);
    if (volumeSelectors === undefined) {
      // A bound claim's volume not seen yet: tried again when volumes change.
      this.#unschedulable.add(key);
      return;
    }
    const attempt: Attempt = {
      pod,
      requests: podRequests(pod),
      pinned: this.#lookup === undefined ? undefined : selectedNode(pod, this.#lookup),
      volumeSelectors,
      delayed: this.#lookup === undefined ? [] : delayedClaims(pod, this.#lookup),
      csiVolumes: this.#lookup === undefined ? (new Map() as DriverVolumes) : csiVolumesOf(pod, this.#lookup),
      volumeZones: this.#lookup === undefined ? [] : volumeTopologies(pod, this.#lookup),
    };
    const placement = this.#placement(pod, nodes, (node) => [...this.#usage.podsOn(node)]);
    const failed = new Map<string, NodeFit>();
    const nominatedNode = pod.status?.nominatedNodeName ?? '';
    let best: { node: string; share: number; pods: number } | undefined;
    for (const node of nodes) {
      const name = node.metadata?.name ?? '';
      const used = this.#usage.used(name);
      const fit = this.#fitOn(attempt, { node, used: this.#withNominated(name, pod, used), placement });
      if (fit.reasons.length > 0) {
        failed.set(name, fit);
        continue;
      }
      const candidate = {
        node: name,
        share: freeShare(attempt.requests, used, nodeAllocatable(node)),
        pods: this.#usage.podCount(name),
      };
      // The node the pod preempted for goes first when it fits (evaluateNominatedNode).
      if (
        best?.node !== nominatedNode &&
        (name === nominatedNode || best === undefined || better(candidate, best))
      )
        best = candidate;
    }
    if (best === undefined) {
      const post = await this.#preempt(pod, { nodes, failed, attempt });
      await this.#markUnschedulable(key, pod, {
        message: fitErrorMessage(nodes.length, [...failed.values()], post.message),
        nominate: post.nominate,
      });
      if (cycle !== this.#moveCycle) this.#flush();
      return;
    }
    const chosen = nodes.find((n) => n.metadata?.name === best.node) ?? { metadata: { name: best.node } };
    if (await this.#waitsForVolumes(key, pod, chosen)) return;
    await this.#bind(key, pod, best.node);
  }

  /**
   * The filters in kube's order on one node: those of the node alone (filters.ts), VolumeRestrictions',
   * NodeVolumeLimits', VolumeBinding's, VolumeZone's, then PodTopologySpread's and InterPodAffinity's
   * over the placed pods.
   */
  #fitOn(a: Attempt, on: { node: Node; used: Resources; placement: Placement }): NodeFit {
    const { node, used, placement } = on;
    const name = node.metadata?.name ?? '';
    if (a.pinned !== undefined && name !== a.pinned)
      return { reasons: [volumeNodeConflict], unresolvable: true };
    const fit = filterNode({
      pod: a.pod,
      requests: a.requests,
      node,
      used,
      allocatable: nodeAllocatable(node),
      podsOnNode: () => placement.podsOn(name),
    });
    if (fit.reasons.length > 0) return fit;
    if (placement.readWriteOncePodConflict)
      return { reasons: [readWriteOncePodConflict], unresolvable: false };
    if (this.#exceedsVolumeLimits(a, name, placement))
      return { reasons: [maxVolumeCountExceeded], unresolvable: false };
    const volumeReasons: string[] = [];
    if (!a.volumeSelectors.every((selector) => matchesNodeSelector(selector, node)))
      volumeReasons.push(volumeNodeConflict);
    if (this.#lookup !== undefined && a.delayed.length > 0) {
      const bindings = podVolumeBindings(a.delayed, node, this.#lookup);
      if (typeof bindings === 'string') volumeReasons.push(bindings);
    }
    if (volumeReasons.length > 0) return { reasons: volumeReasons, unresolvable: true };
    if (!volumeZoneFits(a.volumeZones, node.metadata?.labels ?? {}))
      return { reasons: [volumeZoneConflict], unresolvable: true };
    const placementFit = placement.filters.map((filter) => filter?.(node)).find((f) => f !== undefined);
    if (placementFit !== undefined)
      return { reasons: [placementFit.reason], unresolvable: placementFit.unresolvable };
    return fitsNode;
  }

  /** NodeVolumeLimits: the pod's new CSI volumes against the node's CSINode counts. */
  #exceedsVolumeLimits(a: Attempt, node: string, placement: Placement): boolean {
    const lookup = this.#lookup;
    if (lookup === undefined || a.csiVolumes.size === 0) return false;
    const csiNode = this.#opts.csiNodes?.get(node);
    if (csiNode === undefined) return false;
    const attached = placement.podsOn(node).map((p) => csiVolumesOf(p, lookup));
    return exceedsVolumeLimits(a.csiVolumes, attached, csiNode);
  }

  /**
   * DefaultPreemption's PostFilter: the message it adds to the FitError (empty when it preempted),
   * and what becomes of the pod's nomination (undefined: left as it is, '': cleared). With victims
   * found, they are deleted here and the pod is nominated to their node.
   */
  async #preempt(
    pod: Pod,
    after: {
      nodes: readonly Node[];
      /** Why each node failed. */
      failed: ReadonlyMap<string, NodeFit>;
      /** The attempt's checks, undefined when a PreFilter failed (no node can help). */
      attempt: Attempt | undefined;
    },
  ): Promise<{ message: string; nominate: string | undefined }> {
    const { nodes, failed, attempt } = after;
    const nominatedNode = pod.status?.nominatedNodeName ?? '';
    const why = ineligibility(
      pod,
      nominatedNode === ''
        ? undefined
        : {
            unresolvable: failed.get(nominatedNode)?.unresolvable === true,
            pods: this.#usage.podsOn(nominatedNode),
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
      const fitsWith = (remaining: readonly Pod[]): NodeFit => {
        const used: Resources = new Map();
        for (const p of remaining) addResources(used, podUsage(p));
        const placement = this.#placement(pod, nodes, (n) =>
          n === name ? remaining : [...this.#usage.podsOn(n)],
        );
        return this.#fitOn(attempt, { node, used: this.#withNominated(name, pod, used), placement });
      };
      const found = selectVictimsOnNode({
        pod,
        podsOnNode: [...this.#usage.podsOn(name)],
        fitsWith,
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
    await this.#evictVictims(pod, chosen, victims.pods);
    await this.#clearLowerNominations(pod, chosen);
    return { message: '', nominate: chosen };
  }

  /** prepareCandidate: each victim gets DisruptionTarget (PreemptionByScheduler), then is deleted. */
  async #evictVictims(pod: Pod, node: string, victims: readonly Pod[]): Promise<void> {
    const message = `${pod.spec?.schedulerName ?? defaultSchedulerName}: preempting to accommodate a higher priority pod`;
    for (const victim of victims) {
      const target = splitKey(keyOf(victim));
      try {
        const current = await this.#client.get<Pod>('/v1/pods', target);
        const updated = withDisruptionTarget(current, {
          reason: preemptionReason,
          message,
          now: rfc3339(this.#opts.clock.now()),
        });
        if (updated !== undefined) await this.#client.update('/v1/pods/status', updated);
        await this.#client.delete('/v1/pods', target, {});
      } catch (err) {
        if (reasonForError(err) === 'NotFound') continue;
        throw err;
      }
      this.#opts.recorder?.event(refOf(victim), {
        type: 'Normal',
        reason: 'Preempted',
        message: `Preempted by pod ${pod.metadata?.uid ?? ''} on node ${node}`,
      });
    }
  }

  /** Pods of lower priority nominated to the node may no longer fit there: their nomination goes. */
  async #clearLowerNominations(pod: Pod, node: string): Promise<void> {
    const priority = podPriority(pod);
    for (const [key, other] of [...(this.#nominated.get(node) ?? [])]) {
      if (podPriority(other) >= priority) continue;
      try {
        const current = await this.#client.get<Pod>('/v1/pods', splitKey(key));
        if ((current.status?.nominatedNodeName ?? '') === '') continue;
        const updated = copyOf(current);
        delete updated.status?.nominatedNodeName;
        await this.#client.update('/v1/pods/status', updated);
        this.#nominate(key, updated);
      } catch (err) {
        if (reasonForError(err) !== 'NotFound') throw err;
      }
    }
  }

  /**
   * The pods placed on each node, and the filters that look at them beyond a node's own:
   * PodTopologySpread's, then InterPodAffinity's, each undefined when it has nothing to check.
   */
  #placement(pod: Pod, nodes: readonly Node[], podsOn: (node: string) => readonly Pod[]): Placement {
    const filters = [podTopologySpreadFilter(pod, nodes, podsOn), this.#interPodAffinity(pod, nodes, podsOn)];
    const lookup = this.#lookup;
    const readWriteOncePodConflict =
      lookup !== undefined &&
      hasReadWriteOncePodConflict(pod, () => nodes.flatMap((n) => podsOn(n.metadata?.name ?? '')), lookup);
    return { podsOn, filters, readWriteOncePodConflict };
  }

  /** InterPodAffinity's filter; skipped without a term of the pod's or a placed pod's anti-affinity. */
  #interPodAffinity(
    pod: Pod,
    nodes: readonly Node[],
    podsOn: (node: string) => readonly Pod[],
  ): ReturnType<typeof interPodAffinityFilter> {
    const own = pod.spec?.affinity;
    const terms =
      (own?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []).length +
      (own?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []).length;
    if (terms === 0 && !this.#usage.anyAntiAffinity) return undefined;
    const placed: PlacedPod[] = [];
    for (const node of nodes) {
      const nodeLabels = node.metadata?.labels ?? {};
      for (const other of podsOn(node.metadata?.name ?? '')) placed.push({ pod: other, nodeLabels });
    }
    const namespaces = this.#opts.namespaces;
    return interPodAffinityFilter(
      pod,
      placed,
      namespaces === undefined ? () => undefined : namespaceLabelsOf((name) => namespaces.get(name)),
    );
  }

  /** The volumes, those this scheduler bound as it wrote them. */
  #withAssumed(volumes: readonly PersistentVolume[]): readonly PersistentVolume[] {
    if (this.#assumedVolumes.size === 0) return volumes;
    return volumes.map((pv) => this.#assumedVolumes.get(keyOf(pv)) ?? pv);
  }

  #volumeReason(pod: Pod): string | undefined {
    return this.#lookup === undefined ? undefined : volumeBindingReason(pod, this.#lookup);
  }

  /**
   * BindPodVolumes: each of the pod's claims that wait for their first consumer is bound to the
   * volume it takes on the node (the volume's claimRef, which the PV controller completes), or,
   * to be provisioned, given the node; the pod waits (without a condition) until they are bound,
   * and a claim's or volume's change tries it again.
   */
  async #waitsForVolumes(key: string, pod: Pod, node: Node): Promise<boolean> {
    const delayed = this.#lookup === undefined ? [] : delayedClaims(pod, this.#lookup);
    if (this.#lookup === undefined || delayed.length === 0) return false;
    this.#unschedulable.add(key);
    const found = podVolumeBindings(delayed, node, this.#lookup);
    // Gone since the filter passed (the volumes changed): tried again with the change.
    const bindings = typeof found === 'string' ? { static: [], provision: [] } : found;
    for (const [claim, volume] of bindings.static) {
      const bound = volumeBoundToClaim(volume, claim);
      if (bound === undefined) continue;
      const written = await this.#client.update('/v1/persistentvolumes', bound);
      // Kept unless the informer already showed it bound (its event came during the write).
      if (this.#opts.volumes?.get(keyOf(written))?.spec?.claimRef === undefined)
        this.#assumedVolumes.set(keyOf(written), written);
    }
    for (const claim of bindings.provision) {
      const updated = withSelectedNode(claim, node.metadata?.name ?? '');
      if (updated !== undefined) await this.#client.update('/v1/persistentvolumeclaims', updated);
    }
    return true;
  }

  async #bind(key: string, pod: Pod, node: string): Promise<void> {
    const { namespace, name } = splitKey(key);
    this.#usage.assume(pod, node);
    try {
      await this.#client.createNamed('/v1/pods/binding', { namespace, name }, {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name, namespace, ...(pod.metadata?.uid === undefined ? {} : { uid: pod.metadata.uid }) },
        target: { apiVersion: 'v1', kind: 'Node', name: node },
      } satisfies Binding);
    } catch (err) {
      this.#usage.forget(key);
      const reason = reasonForError(err);
      if (reason === 'NotFound' || reason === 'Conflict') return; // gone, or bound by someone else
      throw err;
    }
    this.#placedPodAdded();
    this.#opts.recorder?.event(refOf(pod), {
      type: 'Normal',
      reason: 'Scheduled',
      message: `Successfully assigned ${key} to ${node}`,
    });
  }

  /** The pod's PodScheduled=False condition, and its nomination (undefined: kept; '': cleared). */
  async #markUnschedulable(
    key: string,
    pod: Pod,
    outcome: { message: string; nominate: string | undefined },
  ): Promise<void> {
    const { message, nominate } = outcome;
    this.#unschedulable.add(key);
    this.#opts.recorder?.event(refOf(pod), { type: 'Warning', reason: 'FailedScheduling', message });
    const current = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
    const nominationKept = nominate === undefined || (pod.status?.nominatedNodeName ?? '') === nominate;
    if (
      current?.status === 'False' &&
      current.reason === 'Unschedulable' &&
      current.message === message &&
      nominationKept
    )
      return;
    const updated = copyOf(pod);
    const status = (updated.status ??= {});
    if (nominate === '') delete status.nominatedNodeName;
    else if (nominate !== undefined) status.nominatedNodeName = nominate;
    const others = (status.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
    status.conditions = [
      ...others,
      {
        type: 'PodScheduled',
        status: 'False',
        lastTransitionTime:
          current?.status === 'False' && current.lastTransitionTime !== undefined
            ? current.lastTransitionTime
            : rfc3339(this.#opts.clock.now()),
        reason: 'Unschedulable',
        message,
      },
    ];
    status.phase ??= 'Pending';
    try {
      this.#nominate(key, await this.#client.update('/v1/pods/status', updated));
    } catch (err) {
      if (reasonForError(err) === 'NotFound') return;
      this.#unschedulable.delete(key);
      throw err;
    }
  }
}

function better(a: { node: string; share: number; pods: number }, b: typeof a): boolean {
  if (a.share !== b.share) return a.share > b.share;
  if (a.pods !== b.pods) return a.pods < b.pods;
  return a.node < b.node;
}

function refOf(pod: Pod): { kind: string; apiVersion: string; name: string; namespace: string; uid: string } {
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    name: pod.metadata?.name ?? '',
    namespace: pod.metadata?.namespace ?? '',
    uid: pod.metadata?.uid ?? '',
  };
}
