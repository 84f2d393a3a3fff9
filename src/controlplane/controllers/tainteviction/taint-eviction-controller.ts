// kube-controller-manager's taint eviction controller (pkg/controller/tainteviction/taint_eviction.go)
// on the server's clock: a pod on a node with NoExecute taints it does not tolerate is deleted at
// once; one that tolerates them for tolerationSeconds is deleted when the shortest runs out, unless
// the taints go first. Before deleting, the pod gets the DisruptionTarget condition
// (DeletionByTaintManager); each deletion and cancellation is a TaintManagerEviction event.
import type { Node, Taint } from '../../../api/core/v1/node.js';
import type { Pod, Toleration } from '../../../api/core/v1/pod.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import type { Logger } from '../../../server/logging/logger.js';
import type { EventRecorder } from '../event-recorder.js';
import type { APIClient } from '../simulation/api-client.js';
import { rfc3339, type SimClock } from '../simulation/clock.js';
import { keyOf, splitKey, type Informer } from '../simulation/informer.js';
import { WorkLoop } from '../simulation/work-loop.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';
import { withDisruptionTarget } from '../disruption-target.js';
import { matchingTolerations, minTolerationMs, noExecuteTaints } from './tolerations.js';

export interface TaintEvictionControllerOptions {
  readonly client: APIClient;
  readonly nodes: Informer<Node>;
  readonly pods: Informer<Pod>;
  readonly clock: SimClock;
  readonly logger: Logger;
  readonly recorder?: EventRecorder;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

/** A pod's deletion to come (TimedWorker). */
interface ScheduledEviction {
  readonly createdAt: number;
  readonly cancel: () => void;
}

const sameTaints = (a: readonly Taint[], b: readonly Taint[]): boolean =>
  JSON.stringify(a) === JSON.stringify(b);
const sameTolerations = (a: readonly Toleration[] | undefined, b: readonly Toleration[] | undefined) =>
  JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

export class TaintEvictionController {
  readonly #opts: TaintEvictionControllerOptions;
  readonly #client: APIClient;
  readonly #loop: WorkLoop;
  /** taintedNodes: each node's NoExecute taints, for the nodes that have some. */
  readonly #tainted = new Map<string, Taint[]>();
  readonly #scheduled = new Map<string, ScheduledEviction>();

  constructor(opts: TaintEvictionControllerOptions) {
    this.#opts = opts;
    this.#client = opts.client.as('kube-controller-manager');
    this.#loop = new WorkLoop({
      queueName: 'noexec_taint_pod',
      workqueueMetrics: opts.workqueueMetrics,

      name: 'taint-eviction-controller',
      logger: opts.logger,
      sync: (k) => this.#sync(k),
    });
    opts.nodes.addHandler((type, node, old) => {
      const taints = noExecuteTaints(node.spec?.taints);
      if (type === 'MODIFIED' && old !== undefined && sameTaints(noExecuteTaints(old.spec?.taints), taints))
        return;
      this.#loop.queue.add(`n:${node.metadata?.name ?? ''}`);
    });
    opts.pods.addHandler((type, pod, old) => {
      if (
        type === 'MODIFIED' &&
        old !== undefined &&
        old.spec?.nodeName === pod.spec?.nodeName &&
        sameTolerations(old.spec?.tolerations, pod.spec?.tolerations)
      )
        return;
      this.#loop.queue.add(`p:${keyOf(pod)}`);
    });
  }

  run(): void {
    this.#loop.run();
  }

  async close(): Promise<void> {
    for (const s of this.#scheduled.values()) s.cancel();
    this.#scheduled.clear();
    await this.#loop.close();
  }

  async #sync(key: string): Promise<void> {
    if (key.startsWith('n:')) this.#handleNodeUpdate(key.slice(2));
    else if (key.startsWith('p:')) this.#handlePodUpdate(key.slice(2));
    else if (key.startsWith('e:')) await this.#evict(key.slice(2));
  }

  #handleNodeUpdate(name: string): void {
    const node = this.#opts.nodes.get(name);
    if (node === undefined) {
      this.#tainted.delete(name);
      return;
    }
    const taints = noExecuteTaints(node.spec?.taints);
    if (taints.length === 0) this.#tainted.delete(name);
    else this.#tainted.set(name, taints);
    const pods = this.#opts.pods.list().filter((p) => p.spec?.nodeName === name);
    const now = this.#opts.clock.now();
    for (const pod of pods) {
      if (taints.length === 0) this.#cancelWithEvent(keyOf(pod));
      else this.#processPodOnNode(pod, taints, now);
    }
  }

  #handlePodUpdate(key: string): void {
    const pod = this.#opts.pods.get(key);
    if (pod === undefined) {
      this.#cancelWithEvent(key);
      return;
    }
    const taints = this.#tainted.get(pod.spec?.nodeName ?? '');
    if (taints === undefined) return;
    this.#processPodOnNode(pod, taints, this.#opts.clock.now());
  }

  #processPodOnNode(pod: Pod, taints: readonly Taint[], now: number): void {
    const key = keyOf(pod);
    if (taints.length === 0) this.#cancelWithEvent(key);
    const { allTolerated, used } = matchingTolerations(taints, pod.spec?.tolerations ?? []);
    if (!allTolerated) {
      this.#cancelWithEvent(key);
      this.#addWork(key, now, now);
      return;
    }
    const min = minTolerationMs(used);
    if (min < 0) {
      this.#cancelWithEvent(key);
      return;
    }
    let start = now;
    const trigger = now + min;
    const scheduled = this.#scheduled.get(key);
    if (scheduled !== undefined) {
      start = scheduled.createdAt;
      if (start + min < trigger) return;
      this.#cancelWithEvent(key);
    }
    this.#addWork(key, start, trigger);
  }

  /** TimedWorkerQueue.AddWork: a pod already scheduled keeps its time. */
  #addWork(key: string, createdAt: number, fireAt: number): void {
    if (this.#scheduled.has(key)) return;
    const delay = fireAt - this.#opts.clock.now();
    if (delay <= 0) {
      this.#scheduled.set(key, { createdAt, cancel: () => undefined });
      this.#loop.queue.add(`e:${key}`);
      return;
    }
    const cancel = this.#opts.clock.after(delay, () => {
      this.#loop.queue.add(`e:${key}`);
    });
    this.#scheduled.set(key, { createdAt, cancel });
  }

  #cancelWithEvent(key: string): void {
    const scheduled = this.#scheduled.get(key);
    if (scheduled === undefined) return;
    scheduled.cancel();
    this.#scheduled.delete(key);
    this.#event(key, `Cancelling deletion of Pod ${key}`);
  }

  #event(key: string, message: string): void {
    const { namespace, name } = splitKey(key);
    this.#opts.recorder?.event(
      { apiVersion: 'v1', kind: 'Pod', name, namespace },
      { type: 'Normal', reason: 'TaintManagerEviction', message },
    );
  }

  /** deletePodHandler: the event, the DisruptionTarget condition, then the deletion. */
  async #evict(key: string): Promise<void> {
    if (!this.#scheduled.has(key)) return;
    this.#event(key, `Marking for deletion Pod ${key}`);
    const { namespace, name } = splitKey(key);
    try {
      const pod = await this.#client.get<Pod>('/v1/pods', { namespace, name });
      await this.#addDisruptionTarget(pod);
      await this.#client.delete('/v1/pods', { namespace, name }, {});
    } catch (err) {
      if (reasonForError(err) !== 'NotFound') throw err;
    }
    this.#scheduled.delete(key);
  }

  async #addDisruptionTarget(pod: Pod): Promise<void> {
    const updated = withDisruptionTarget(pod, {
      reason: 'DeletionByTaintManager',
      message: 'Taint manager: deleting due to NoExecute taint',
      now: rfc3339(this.#opts.clock.now()),
    });
    if (updated === undefined) return;
    await this.#client.as('taint-eviction-controller').update('/v1/pods/status', updated);
  }
}
