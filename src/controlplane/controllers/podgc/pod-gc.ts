// PodGC (pkg/controller/podgc/gc_controller.go): pods bound to a node that no longer exists, and
// terminating pods never bound to one, are deleted at once (grace period 0); an orphaned pod is first
// marked Failed with a DisruptionTarget condition (DeletionByPodGC), as kube does. A pass runs when
// a node or such a pod is seen, and every gcCheckPeriod (20s) on the server's clock.
import type { Node } from '../../../api/core/v1/node.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import type { Logger } from '../../../server/logging/logger.js';
import { copyOf, type APIClient } from '../simulation/api-client.js';
import { periodically, rfc3339, type SimClock } from '../simulation/clock.js';
import type { Informer } from '../simulation/informer.js';
import { WorkLoop } from '../simulation/work-loop.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';

const gcCheckPeriodMs = 20_000;
const passKey = 'gc';

export interface PodGCOptions {
  readonly client: APIClient;
  readonly pods: Informer<Pod>;
  readonly nodes: Informer<Node>;
  readonly clock: SimClock;
  readonly logger: Logger;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

export class PodGC {
  readonly #opts: PodGCOptions;
  readonly #loop: WorkLoop;
  #stopTicking: (() => void) | undefined;

  constructor(opts: PodGCOptions) {
    this.#opts = opts;
    this.#loop = new WorkLoop({
      queueName: 'podgc',
      workqueueMetrics: opts.workqueueMetrics,

      name: 'pod-garbage-collector',
      logger: opts.logger,
      sync: () => this.#pass(),
    });
    opts.nodes.addHandler((type) => {
      if (type === 'DELETED') this.#loop.queue.add(passKey);
    });
    opts.pods.addHandler((type, pod) => {
      if (type !== 'DELETED' && this.#collectable(pod) !== undefined) this.#loop.queue.add(passKey);
    });
  }

  run(): void {
    this.#loop.run();
    this.#stopTicking ??= periodically(this.#opts.clock, gcCheckPeriodMs, () => {
      this.#loop.queue.add(passKey);
    });
  }

  async close(): Promise<void> {
    this.#stopTicking?.();
    await this.#loop.close();
  }

  /** Why the pod is to go: its node is gone, or it terminates unscheduled. */
  #collectable(pod: Pod): 'orphaned' | 'unscheduled' | undefined {
    const node = pod.spec?.nodeName ?? '';
    if (node === '') return pod.metadata?.deletionTimestamp === undefined ? undefined : 'unscheduled';
    return this.#opts.nodes.get(node) === undefined ? 'orphaned' : undefined;
  }

  async #pass(): Promise<void> {
    for (const pod of this.#opts.pods.list()) {
      const why = this.#collectable(pod);
      if (why === undefined) continue;
      if (why === 'orphaned') await this.#markFailed(pod);
      await this.#forceDelete(pod);
    }
  }

  async #markFailed(pod: Pod): Promise<void> {
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') return;
    const updated = copyOf(pod);
    const now = rfc3339(this.#opts.clock.now());
    const status = (updated.status ??= {});
    status.phase = 'Failed';
    status.conditions = [
      ...(status.conditions ?? []).filter((c) => c.type !== 'DisruptionTarget'),
      {
        type: 'DisruptionTarget',
        status: 'True',
        reason: 'DeletionByPodGC',
        message: 'PodGC: node no longer exists',
        lastTransitionTime: now,
      },
    ];
    try {
      await this.#opts.client.as('pod-garbage-collector').update('/v1/pods/status', updated);
    } catch (err) {
      const reason = reasonForError(err);
      if (reason !== 'NotFound' && reason !== 'Conflict') throw err;
    }
  }

  async #forceDelete(pod: Pod): Promise<void> {
    const uid = pod.metadata?.uid;
    try {
      await this.#opts.client.delete(
        '/v1/pods',
        { namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '' },
        { gracePeriodSeconds: 0, ...(uid === undefined ? {} : { preconditions: { uid } }) },
      );
    } catch (err) {
      const reason = reasonForError(err);
      if (reason !== 'NotFound' && reason !== 'Conflict') throw err;
    }
  }
}
