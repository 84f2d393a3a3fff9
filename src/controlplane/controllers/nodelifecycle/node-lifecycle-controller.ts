// kube-controller-manager's node lifecycle controller (pkg/controller/nodelifecycle/
// node_lifecycle_controller.go) on the server's clock: every nodeMonitorPeriod it checks each node's
// Ready heartbeat and Lease; a node silent for the grace period gets its conditions set Unknown and
// its pods marked not Ready; nodes not Ready or unreachable get the NoExecute taint (rate-limited
// per zone, stopped when every zone is fully disrupted) that the taint eviction controller acts on,
// and every node's NoSchedule taints follow its conditions (TaintNodesByCondition).
import type { Node, NodeCondition, Taint } from '../../../api/core/v1/node.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { Lease } from '../../../api/coordination/v1/lease.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import { errorText } from '../../../server/logging/error-text.js';
import type { Logger } from '../../../server/logging/logger.js';
import type { EventRecorder } from '../event-recorder.js';
import { copyOf, type APIClient } from '../simulation/api-client.js';
import { periodically, rfc3339, type SimClock } from '../simulation/clock.js';
import type { Informer } from '../simulation/informer.js';
import { keyOf } from '../simulation/informer.js';
import { WorkLoop } from '../simulation/work-loop.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';
import { markPodsNotReady } from './mark-pods-not-ready.js';
import { observeNodeHealth, type NodeHealth } from './node-health.js';
import {
  hasTaint,
  noScheduleTaintChanges,
  notReadyNoExecute,
  swappedTaints,
  unreachableNoExecute,
} from './node-taints.js';
import { TaintQueue, zoneKey, zoneQPS, zoneTransition, type ZoneState } from './zones.js';

const nodeMonitorPeriodMs = 5_000;
/** scheduler.NodeHealthUpdateRetry: attempts at a write that meets a newer node. */
const nodeHealthUpdateRetry = 5;
const nodeLeaseNamespace = 'kube-node-lease';
const excludeDisruptionLabel = 'node.kubernetes.io/exclude-disruption';
const monitorKey = 'monitor';
const taintKey = 'taint';
const nodeKind = { apiVersion: 'v1', kind: 'Node' } as const;

export interface NodeLifecycleControllerOptions {
  readonly client: APIClient;
  readonly nodes: Informer<Node>;
  readonly leases: Informer<Lease>;
  readonly pods: Informer<Pod>;
  readonly clock: SimClock;
  readonly logger: Logger;
  readonly recorder?: EventRecorder;
  /** --node-monitor-grace-period (default 50s). */
  readonly gracePeriodMs?: number;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

export class NodeLifecycleController {
  readonly #opts: NodeLifecycleControllerOptions;
  readonly #client: APIClient;
  readonly #loop: WorkLoop;
  readonly #health = new Map<string, NodeHealth>();
  readonly #known = new Map<string, Node>();
  readonly #zoneStates = new Map<string, ZoneState>();
  readonly #tainters = new Map<string, TaintQueue>();
  readonly #retry = new Set<string>();
  #stopTicking: (() => void) | undefined;
  #cancelTaintPass: (() => void) | undefined;
  #closed = false;

  constructor(opts: NodeLifecycleControllerOptions) {
    this.#opts = opts;
    this.#client = opts.client.as('kube-controller-manager');
    this.#loop = new WorkLoop({
      queueName: 'node_lifecycle_controller',
      workqueueMetrics: opts.workqueueMetrics,

      name: 'node-lifecycle-controller',
      logger: opts.logger,
      sync: (k) => this.#sync(k),
    });
    opts.nodes.addHandler((type, node) => {
      if (type !== 'DELETED') this.#loop.queue.add(`n:${node.metadata?.name ?? ''}`);
    });
    opts.pods.addHandler((type, pod, old) => {
      const nodeName = pod.spec?.nodeName ?? '';
      if (type === 'DELETED' || nodeName === '' || old?.spec?.nodeName === nodeName) return;
      this.#loop.queue.add(`p:${keyOf(pod)}`);
    });
  }

  run(): void {
    this.#loop.run();
    this.#stopTicking ??= periodically(this.#opts.clock, nodeMonitorPeriodMs, () => {
      this.#loop.queue.add(monitorKey);
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#stopTicking?.();
    this.#cancelTaintPass?.();
    await this.#loop.close();
  }

  async #sync(key: string): Promise<void> {
    if (key === monitorKey) await this.#monitorNodeHealth();
    else if (key === taintKey) await this.#noExecuteTaintingPass();
    else if (key.startsWith('n:')) await this.#noScheduleTaintingPass(key.slice(2));
    else if (key.startsWith('p:')) await this.#processPod(key.slice(2));
  }

  #now(): number {
    return this.#opts.clock.now();
  }

  #event(node: Node, reason: string, message: string): void {
    this.#opts.recorder?.event(
      { ...nodeKind, name: node.metadata?.name ?? '', uid: node.metadata?.uid ?? '', namespace: '' },
      { type: 'Normal', reason, message },
    );
  }

  #tainter(node: Node): TaintQueue {
    const zone = zoneKey(node);
    let q = this.#tainters.get(zone);
    if (q === undefined) {
      q = new TaintQueue(this.#now());
      this.#tainters.set(zone, q);
      this.#zoneStates.set(zone, 'Initial');
    }
    return q;
  }

  async #monitorNodeHealth(): Promise<void> {
    const nodes = this.#opts.nodes.list();
    await this.#classify(nodes);
    const zoneReady = new Map<string, (NodeCondition | undefined)[]>();
    for (const node of nodes) {
      const current = await this.#monitorNode(node);
      if (current === false) continue;
      if (node.metadata?.labels?.[excludeDisruptionLabel] !== undefined) continue;
      const zone = zoneKey(node);
      zoneReady.set(zone, [...(zoneReady.get(zone) ?? []), current]);
    }
    await this.#handleDisruption(zoneReady, nodes);
    this.#loop.queue.add(taintKey);
  }

  /** classifyNodes: registers new nodes and forgets deleted ones. */
  async #classify(nodes: readonly Node[]): Promise<void> {
    const names = new Set(nodes.map((n) => n.metadata?.name ?? ''));
    for (const [name, node] of [...this.#known]) {
      if (names.has(name)) continue;
      this.#event(node, 'RemovingNode', `Node ${name} event: Removing Node ${name} from Controller`);
      this.#known.delete(name);
      this.#health.delete(name);
    }
    for (const node of nodes) {
      const name = node.metadata?.name ?? '';
      this.#tainter(node);
      if (this.#known.has(name)) continue;
      this.#event(node, 'RegisteredNode', `Node ${name} event: Registered Node ${name} in Controller`);
      this.#known.set(name, node);
      await this.#markNodeAsReachable(node).catch((err: unknown) => {
        this.#opts.logger.v(2, 'node lifecycle: removing taints failed', { node: name, err: errorText(err) });
      });
    }
  }

  /** One node's pass; its Ready condition now, or false when its health could not be written. */
  async #monitorNode(node: Node): Promise<NodeCondition | undefined | false> {
    const name = node.metadata?.name ?? '';
    let current = node;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#monitorNodeOnce(current);
      } catch (err) {
        if (attempt >= nodeHealthUpdateRetry || reasonForError(err) !== 'Conflict') {
          this.#opts.logger.v(2, 'node lifecycle: updating node health failed', {
            node: name,
            err: errorText(err),
          });
          return false;
        }
        try {
          current = await this.#client.get<Node>('/v1/nodes', { namespace: '', name });
        } catch {
          return false; // deleted meanwhile: the next pass forgets it
        }
      }
    }
  }

  async #monitorNodeOnce(node: Node): Promise<NodeCondition | undefined> {
    const name = node.metadata?.name ?? '';
    const now = this.#now();
    const obs = observeNodeHealth({
      node,
      saved: this.#health.get(name),
      lease: this.#opts.leases.get(`${nodeLeaseNamespace}/${name}`),
      now,
      rfc3339,
      ...(this.#opts.gracePeriodMs === undefined ? {} : { gracePeriodMs: this.#opts.gracePeriodMs }),
    });
    this.#health.set(name, obs.health);
    if (obs.update !== undefined) {
      await this.#client.update('/v1/nodes/status', obs.update);
      this.#health.set(name, obs.written);
    }
    if (obs.currentReady === undefined) return undefined;
    try {
      await this.#processTaintBasedEviction(node, obs.observedReady);
    } catch (err) {
      this.#opts.logger.v(2, 'node lifecycle: tainting failed, retried next pass', {
        node: name,
        err: errorText(err),
      });
    }
    const becameNotReady = obs.currentReady.status !== 'True' && obs.observedReady.status === 'True';
    if (becameNotReady) this.#event(node, 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
    if (becameNotReady || (this.#retry.has(name) && obs.observedReady.status !== 'True')) {
      try {
        await markPodsNotReady({
          client: this.#client,
          recorder: this.#opts.recorder,
          pods: this.#podsOn(name),
          nodeName: name,
          nowText: rfc3339(now),
        });
      } catch (err) {
        this.#opts.logger.v(2, 'node lifecycle: marking pods not ready failed', {
          node: name,
          err: errorText(err),
        });
        this.#retry.add(name);
        return obs.currentReady;
      }
    }
    this.#retry.delete(name);
    return obs.currentReady;
  }

  #podsOn(nodeName: string): Pod[] {
    return this.#opts.pods.list().filter((p) => p.spec?.nodeName === nodeName);
  }

  async #processTaintBasedEviction(node: Node, observed: NodeCondition): Promise<void> {
    const tainter = this.#tainter(node);
    const name = node.metadata?.name ?? '';
    switch (observed.status) {
      case 'False':
        if (hasTaint(node, unreachableNoExecute))
          await this.#swap(name, [notReadyNoExecute], [unreachableNoExecute]);
        else {
          if (!hasTaint(node, notReadyNoExecute)) tainter.remove(name);
          tainter.add(name, this.#now());
        }
        return;
      case 'Unknown':
        if (hasTaint(node, notReadyNoExecute))
          await this.#swap(name, [unreachableNoExecute], [notReadyNoExecute]);
        else {
          if (!hasTaint(node, unreachableNoExecute)) tainter.remove(name);
          tainter.add(name, this.#now());
        }
        return;
      case 'True':
        await this.#markNodeAsReachable(node);
        return;
      default:
        return;
    }
  }

  async #markNodeAsReachable(node: Node): Promise<void> {
    const name = node.metadata?.name ?? '';
    if (hasTaint(node, unreachableNoExecute) || hasTaint(node, notReadyNoExecute))
      await this.#swap(name, [], [unreachableNoExecute, notReadyNoExecute]);
    this.#tainter(node).remove(name);
  }

  /**
   * SwapNodeControllerTaint: from the node as the informer holds it, and from a fresh read when that
   * copy turns out stale (client-go's RetryOnConflict).
   */
  async #swap(name: string, add: readonly Taint[], remove: readonly Taint[]): Promise<boolean> {
    let node = this.#opts.nodes.get(name);
    for (let attempt = 1; node !== undefined; attempt++) {
      const taints = swappedTaints(node, { add, remove, timeAdded: rfc3339(this.#now()) });
      if (taints === undefined) return true;
      const updated = copyOf(node);
      const spec = (updated.spec ??= {});
      if (taints.length > 0) spec.taints = taints;
      else delete spec.taints;
      try {
        await this.#client.update('/v1/nodes', updated);
        return true;
      } catch (err) {
        const reason = reasonForError(err);
        if (reason === 'NotFound') return false;
        if (reason !== 'Conflict' || attempt >= nodeHealthUpdateRetry) throw err;
      }
      node = await this.#client.get<Node>('/v1/nodes', { namespace: '', name });
    }
    return false;
  }

  async #noScheduleTaintingPass(name: string): Promise<void> {
    const node = this.#opts.nodes.get(name);
    if (node === undefined) return;
    const { add, remove } = noScheduleTaintChanges(node);
    if (add.length === 0 && remove.length === 0) return;
    await this.#swap(name, add, remove);
  }

  /** doNoExecuteTaintingPass: each zone's queue, at its rate; runs again when a token is due. */
  async #noExecuteTaintingPass(): Promise<void> {
    let next: number | undefined;
    for (const q of this.#tainters.values()) {
      const due = await q.try(this.#now(), (name) => this.#taintNoExecute(name));
      if (due !== undefined && (next === undefined || due < next)) next = due;
    }
    this.#cancelTaintPass?.();
    this.#cancelTaintPass = undefined;
    if (next === undefined || this.#closed) return;
    this.#cancelTaintPass = this.#opts.clock.after(next - this.#now(), () => {
      this.#loop.queue.add(taintKey);
    });
  }

  async #taintNoExecute(name: string): Promise<boolean> {
    const node = this.#opts.nodes.get(name);
    if (node === undefined) return true;
    const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
    if (ready === undefined) return false;
    try {
      if (ready.status === 'False')
        return await this.#swap(name, [notReadyNoExecute], [unreachableNoExecute]);
      if (ready.status === 'Unknown')
        return await this.#swap(name, [unreachableNoExecute], [notReadyNoExecute]);
      return true;
    } catch (err) {
      this.#opts.logger.v(2, 'node lifecycle: NoExecute taint failed', { node: name, err: errorText(err) });
      return false;
    }
  }

  /** handleDisruption: each zone's tainting rate from its state; all zones down stops tainting. */
  async #handleDisruption(
    zoneReady: ReadonlyMap<string, readonly (NodeCondition | undefined)[]>,
    nodes: readonly Node[],
  ): Promise<void> {
    const { newStates, allAreFull, allWereFull } = zoneTransition(this.#zoneStates, zoneReady);
    if (allAreFull && allWereFull) return;
    const now = this.#now();
    const setLimiter = (zone: string, state: ZoneState): void => {
      this.#tainters.get(zone)?.swapLimiter(zoneQPS(state, zoneReady.get(zone)?.length ?? 0), now);
      this.#zoneStates.set(zone, state);
    };
    if (allAreFull) {
      this.#opts.logger.info(
        'Controller detected that all Nodes are not-Ready. Entering master disruption mode',
      );
      for (const node of nodes)
        await this.#markNodeAsReachable(node).catch((err: unknown) => {
          this.#opts.logger.v(2, 'node lifecycle: removing taints failed', {
            node: node.metadata?.name ?? '',
            err: errorText(err),
          });
        });
      for (const zone of this.#zoneStates.keys()) {
        this.#tainters.get(zone)?.swapLimiter(0, now);
        this.#zoneStates.set(zone, 'FullDisruption');
      }
      return;
    }
    if (allWereFull) {
      this.#opts.logger.info('Controller detected that some Nodes are Ready. Exiting master disruption mode');
      for (const [name, h] of this.#health)
        this.#health.set(name, { ...h, probeTimestamp: now, readyTransitionTimestamp: now });
    }
    for (const [zone, state] of [...this.#zoneStates])
      if (allWereFull || state !== newStates.get(zone)) setLimiter(zone, newStates.get(zone) ?? 'Normal');
  }

  /** processPod: a pod bound to a node that is not Ready is marked not Ready itself. */
  async #processPod(key: string): Promise<void> {
    const pod = this.#opts.pods.get(key);
    if (pod === undefined) return;
    const nodeName = pod.spec?.nodeName ?? '';
    const health = this.#health.get(nodeName);
    if (health === undefined || this.#opts.nodes.get(nodeName) === undefined) return;
    if (health.ready === undefined || health.ready.status === 'True') return;
    await markPodsNotReady({
      client: this.#client,
      recorder: this.#opts.recorder,
      pods: [pod],
      nodeName,
      nowText: rfc3339(this.#now()),
    });
  }
}
