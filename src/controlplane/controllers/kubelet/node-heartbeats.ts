// The simulated kubelets' registration and heartbeats (kubelet's registerWithAPIServer and its node
// lease controller, as kwok fakes them): each node is created Ready, its Lease in kube-node-lease is
// created owned by the node and renewed every renewInterval, and its Ready condition's heartbeat is
// refreshed every statusInterval, or at once when an image is new on it (its status.images, from
// node-images.ts; kubelet notices within its nodeStatusUpdateFrequency). A node annotated
// capstan.dev/kubelet-stopped: "true" gets neither until the annotation goes; the node lifecycle
// controller then sees its kubelet fall silent. Once a node is registered, its kubelet's start
// events are recorded (node-events.ts), once per node in this server's life.
import type { Node } from '../../../api/core/v1/node.js';
import type { Lease } from '../../../api/coordination/v1/lease.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import type { Logger } from '../../../server/logging/logger.js';
import type { EventRecorder } from '../event-recorder.js';
import type { APIClient } from '../simulation/api-client.js';
import { copyOf } from '../simulation/api-client.js';
import { rfc3339, type SimClock } from '../simulation/clock.js';
import type { Informer } from '../simulation/informer.js';
import { WorkLoop } from '../simulation/work-loop.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';
import {
  isKubeletStopped,
  readyConditions,
  simulatedNode,
  simulatedNodeName,
  type SimulatedNodeShape,
} from './node-template.js';
import type { ContainerImage, NodeImages } from './node-images.js';
import { nodeRef, nodeStartEvents } from './node-events.js';

export const nodeLeaseNamespace = 'kube-node-lease';
/** kubelet's defaults: a 40s lease renewed every quarter of it; status reported every 5 minutes. */
const leaseDurationSeconds = 40;
const renewIntervalMs = 10_000;
const statusIntervalMs = 300_000;

/** metav1.MicroTime's text. */
const microTime = (ms: number): string => new Date(ms).toISOString().replace(/Z$/, '000Z');

export interface NodeHeartbeatsOptions {
  readonly count: number;
  readonly shape: SimulatedNodeShape;
  readonly client: APIClient;
  readonly nodes: Informer<Node>;
  readonly clock: SimClock;
  readonly logger: Logger;
  /** The images the kubelets ran on each node, for status.images (none reported when unset). */
  readonly images?: NodeImages | undefined;
  /** kubelet's events about its node (none recorded when unset). */
  readonly recorder?: EventRecorder | undefined;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

export class NodeHeartbeats {
  readonly #opts: NodeHeartbeatsOptions;
  readonly #loop: WorkLoop;
  readonly #index = new Map<string, number>();
  /** Each node's next round. */
  readonly #timers = new Map<string, () => void>();
  /** The nodes whose kubelet's start was recorded. */
  readonly #started = new Set<string>();
  #closed = false;

  constructor(opts: NodeHeartbeatsOptions) {
    this.#opts = { ...opts, client: opts.client.as('kubelet') };
    for (let i = 0; i < opts.count; i++) this.#index.set(simulatedNodeName(i), i);
    this.#loop = new WorkLoop({
      queueName: 'simulated_node_heartbeats',
      workqueueMetrics: opts.workqueueMetrics,
      name: 'node heartbeats',
      logger: opts.logger,
      sync: (k) => this.#sync(k),
    });
    // A kubelet started again reports at once.
    opts.nodes.addHandler((type, node, old) => {
      const name = node.metadata?.name ?? '';
      if (type === 'MODIFIED' && isKubeletStopped(old) && !isKubeletStopped(node) && this.#index.has(name))
        this.#loop.queue.add(name);
    });
    opts.images?.onChange((name) => {
      if (this.#index.has(name)) this.#loop.queue.add(name);
    });
  }

  /** The nodes this server simulates, by name. */
  get names(): readonly string[] {
    return [...this.#index.keys()];
  }

  run(): void {
    this.#loop.run();
    for (const name of this.#index.keys()) this.#loop.queue.add(name);
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const cancel of this.#timers.values()) cancel();
    this.#timers.clear();
    await this.#loop.close();
  }

  async #sync(name: string): Promise<void> {
    const index = this.#index.get(name);
    if (index === undefined || this.#closed) return;
    if (isKubeletStopped(this.#opts.nodes.get(name))) {
      this.#later(name, renewIntervalMs);
      return;
    }
    const uid = await this.#ensureNode(name, index);
    this.#recordStart(name);
    await this.#renewLease(name, uid);
    this.#later(name, renewIntervalMs);
  }

  #recordStart(name: string): void {
    const recorder = this.#opts.recorder;
    if (recorder === undefined || this.#started.has(name)) return;
    this.#started.add(name);
    for (const e of nodeStartEvents(name))
      recorder.event(nodeRef(name), { type: 'Normal', ...e }, { host: name });
  }

  #later(name: string, ms: number): void {
    this.#timers.get(name)?.();
    const cancel = this.#opts.clock.after(ms, () => {
      this.#timers.delete(name);
      this.#loop.queue.add(name);
    });
    this.#timers.set(name, cancel);
  }

  /** The node's uid, once it is registered. */
  async #ensureNode(name: string, index: number): Promise<string | undefined> {
    const { client, clock } = this.#opts;
    const now = clock.now();
    const current = this.#opts.nodes.get(name);
    if (current === undefined) {
      try {
        const created = await client.create(
          '/v1/nodes',
          '',
          simulatedNode(index, this.#opts.shape, rfc3339(now)),
        );
        return created.metadata?.uid;
      } catch (err) {
        if (reasonForError(err) !== 'AlreadyExists') throw err;
        return undefined; // the informer brings it; its heartbeat is refreshed on a later round
      }
    }
    const uid = current.metadata?.uid;
    const ready = current.status?.conditions?.find((c) => c.type === 'Ready');
    const beat = Date.parse(ready?.lastHeartbeatTime ?? '') || 0;
    const images = this.#opts.images?.statusImages(current);
    const imagesChanged = images !== undefined && !sameImages(current.status?.images, images);
    if (ready?.status === 'True' && now - beat < statusIntervalMs && !imagesChanged) return uid;
    const node = copyOf(current);
    const conditions = readyConditions(rfc3339(now));
    // A condition that does not change keeps the time it last changed.
    for (const c of conditions) {
      const before = current.status?.conditions?.find((x) => x.type === c.type);
      if (before?.status === c.status && before.lastTransitionTime !== undefined)
        c.lastTransitionTime = before.lastTransitionTime;
    }
    node.status = { ...node.status, conditions };
    if (images !== undefined && images.length > 0) node.status.images = images;
    await client.update('/v1/nodes/status', node);
    return uid;
  }

  /**
   * kubelet's lease controller: the Lease read back and written with its resourceVersion (a Lease
   * takes no unconditional update), created when missing.
   */
  async #renewLease(name: string, uid: string | undefined): Promise<void> {
    const { client, clock } = this.#opts;
    const owners = uid === undefined ? undefined : [{ apiVersion: 'v1', kind: 'Node', name, uid }];
    const spec = { holderIdentity: name, leaseDurationSeconds, renewTime: microTime(clock.now()) };
    let current: Lease;
    try {
      current = await client.get<Lease>('coordination.k8s.io/v1/leases', {
        namespace: nodeLeaseNamespace,
        name,
      });
    } catch (err) {
      if (reasonForError(err) !== 'NotFound') throw err;
      const lease: Lease = {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: {
          name,
          namespace: nodeLeaseNamespace,
          ...(owners === undefined ? {} : { ownerReferences: owners }),
        },
        spec,
      };
      await client.create('coordination.k8s.io/v1/leases', nodeLeaseNamespace, lease);
      return;
    }
    const lease = copyOf(current);
    lease.spec = { ...lease.spec, ...spec };
    if (owners !== undefined && (lease.metadata?.ownerReferences ?? []).length === 0)
      lease.metadata = { ...lease.metadata, ownerReferences: owners };
    await client.update('coordination.k8s.io/v1/leases', lease);
  }
}

function sameImages(
  reported: readonly ContainerImage[] | undefined,
  images: readonly ContainerImage[],
): boolean {
  const before = reported ?? [];
  return (
    before.length === images.length &&
    images.every((image, i) => {
      const other = before[i];
      const [names, otherNames] = [image.names ?? [], other?.names ?? []];
      return (
        other?.sizeBytes === image.sizeBytes &&
        names.length === otherNames.length &&
        names.every((n, j) => otherNames[j] === n)
      );
    })
  );
}
