// A scheduler for the simulated cluster (kube-scheduler's scheduleOne, much reduced): pending pods
// of default-scheduler are filtered against every node (node-filter.ts), bound through pods/binding
// to the node that fits with the highest score of kube's default score plugins (node-score.ts), and
// given PodScheduled=False/Unschedulable with kube's message when none fits, or when its claims are
// missing or not bound (volume-binding.ts). When no node fits, a pod of higher priority preempts
// (preemptor.ts, preemption.ts): pods of lower priority on the node where the fewest and least
// important must go are deleted, and the pod is nominated to it (nominations.ts), which keeps others
// of no higher priority from taking the room it made. Unschedulable pods are tried again when nodes,
// claims or volumes change, pods go away, a pod is placed that one of them may want beside it, and
// every flushIntervalMs.
import type { Namespace } from '../../../api/core/v1/namespace.js';
import type { Node } from '../../../api/core/v1/node.js';
import type { Binding } from '../../../api/core/v1/binding.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import type { Service } from '../../../api/core/v1/service.js';
import type { ReplicationController } from '../../../api/core/v1/replication-controller.js';
import type { ReplicaSet } from '../../../api/apps/v1/replica-set.js';
import type { StatefulSet } from '../../../api/apps/v1/stateful-set.js';
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import type { PodDisruptionBudget } from '../../../api/policy/v1/pod-disruption-budget.js';
import type { CSIDriver } from '../../../api/storage/v1/csi-driver.js';
import type { CSINode } from '../../../api/storage/v1/csi-node.js';
import type { CSIStorageCapacity } from '../../../api/storage/v1/csi-storage-capacity.js';
import type { StorageClass } from '../../../api/storage/v1/storage-class.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import type { Logger } from '../../../server/logging/logger.js';
import type { EventRecorder } from '../event-recorder.js';
import { volumeBoundToClaim } from '../persistentvolume/volume-util.js';
import { copyOf, type APIClient } from '../simulation/api-client.js';
import { rfc3339, type SimClock } from '../simulation/clock.js';
import { keyOf, splitKey, type Informer } from '../simulation/informer.js';
import { WorkLoop, type WorkLoopOptions } from '../simulation/work-loop.js';
import { fitErrorMessage, type NodeFit } from './filters.js';
import { NodeFilter } from './node-filter.js';
import { isTerminal, NodeUsage } from './node-usage.js';
import { Nominations } from './nominations.js';
import { hardSpreadConstraints } from './pod-topology-spread.js';
import { podRef, Preemptor } from './preemptor.js';
import { chooseNode, type ScoredNode } from './node-score.js';
import { namespaceLabelsOf } from './inter-pod-affinity.js';
import { defaultSpreadSelector } from './default-spread-selector.js';
import {
  boundVolumeSelectors,
  delayedClaims,
  podVolumeBindings,
  preFilterMessage,
  volumeBindingReason,
  withSelectedNode,
  type VolumeLookup,
} from './volume-binding.js';

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
  /** What selects or owns pods, for the spreading of pods without constraints of their own. */
  readonly services?: Informer<Service>;
  readonly replicationControllers?: Informer<ReplicationController>;
  readonly replicaSets?: Informer<ReplicaSet>;
  readonly statefulSets?: Informer<StatefulSet>;
  /** The PodDisruptionBudgets preemption would rather not break. */
  readonly budgets?: Informer<PodDisruptionBudget>;
  readonly clock: SimClock;
  readonly logger: Logger;
  readonly recorder?: EventRecorder;
  readonly workqueueMetrics?: WorkLoopOptions['workqueueMetrics'];
}

/** Whether the pod waits for this scheduler. */
export const isPendingForScheduler = (pod: Pod): boolean =>
  (pod.spec?.nodeName ?? '') === '' &&
  (pod.spec?.schedulerName ?? defaultSchedulerName) === defaultSchedulerName &&
  pod.metadata?.deletionTimestamp === undefined &&
  !isTerminal(pod) &&
  (pod.spec?.schedulingGates ?? []).length === 0;

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
  readonly #nominations = new Nominations();
  readonly #filter: NodeFilter;
  readonly #preemptor: Preemptor;
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
    this.#filter = new NodeFilter({
      lookup: this.#lookup,
      usage: this.#usage,
      namespaces: opts.namespaces,
      csiNodes: opts.csiNodes,
    });
    this.#preemptor = new Preemptor({
      client: this.#client,
      usage: this.#usage,
      filter: this.#filter,
      nominations: this.#nominations,
      budgets: opts.budgets,
      clock: opts.clock,
      recorder: opts.recorder,
      schedulerName: defaultSchedulerName,
    });
    this.#loop = new WorkLoop({
      queueName: 'simulated_scheduler',
      workqueueMetrics: opts.workqueueMetrics,
      name: 'scheduler',
      logger: opts.logger,
      sync: (k) => this.#schedule(k),
    });
    opts.pods.addHandler((type, pod) => {
      const key = keyOf(pod);
      const wasOn = this.#usage.nodeOf(key);
      this.#usage.observe(key, type === 'DELETED' ? undefined : pod);
      this.#nominations.track(key, type !== 'DELETED' && isPendingForScheduler(pod) ? pod : undefined);
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
      const post = await this.#preemptor.preempt(pod, { nodes, failed: unresolvable, attempt: undefined });
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
    const attempt = this.#filter.attempt(pod, volumeSelectors);
    const placement = this.#filter.placement(pod, nodes, (node) => [...this.#usage.podsOn(node)]);
    const failed = new Map<string, NodeFit>();
    const fitting: ScoredNode[] = [];
    for (const node of nodes) {
      const name = node.metadata?.name ?? '';
      const used = this.#usage.used(name);
      const fit = this.#filter.fitOn(attempt, {
        node,
        used: this.#nominations.withNominated(name, pod, used),
        placement,
      });
      if (fit.reasons.length > 0) failed.set(name, fit);
      else fitting.push({ node, requested: used, nonZeroRequested: this.#usage.nonZeroUsed(name) });
    }
    const namespaces = this.#opts.namespaces;
    const best = chooseNode(pod, fitting, {
      nodes,
      podsOn: (node) => [...this.#usage.podsOn(node)],
      podCount: (node) => this.#usage.podCount(node),
      nsLabels: namespaces === undefined ? () => undefined : namespaceLabelsOf((n) => namespaces.get(n)),
      defaultSpreadSelector: (p) => defaultSpreadSelector(p, this.#opts),
    });
    if (best === undefined) {
      const post = await this.#preemptor.preempt(pod, { nodes, failed, attempt });
      await this.#markUnschedulable(key, pod, {
        message: fitErrorMessage(nodes.length, [...failed.values()], post.message),
        nominate: post.nominate,
      });
      if (cycle !== this.#moveCycle) this.#flush();
      return;
    }
    const chosen = nodes.find((n) => n.metadata?.name === best) ?? { metadata: { name: best } };
    if (await this.#waitsForVolumes(key, pod, chosen)) return;
    await this.#bind(key, pod, best);
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
    this.#opts.recorder?.event(podRef(pod), {
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
    this.#opts.recorder?.event(podRef(pod), { type: 'Warning', reason: 'FailedScheduling', message });
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
      this.#nominations.track(key, await this.#client.update('/v1/pods/status', updated));
    } catch (err) {
      if (reasonForError(err) === 'NotFound') return;
      this.#unschedulable.delete(key);
      throw err;
    }
  }
}
