// PodGC (pkg/controller/podgc/gc_controller.go), each pod first marked Failed and then force-deleted
// (mark-failed-and-delete.ts):
// - gcOrphaned: pods bound to a node that has been missing for quarantineTime (40s), with a
//   DisruptionTarget condition (DeletionByPodGC, "PodGC: node no longer exists");
// - gcUnscheduledTerminating: terminating pods never bound to a node;
// - gcTerminated: past --terminated-pod-gc-threshold (kube's 12500) terminated pods, the surplus,
//   evicted pods first and then the oldest (terminated-pods.ts);
// - gcTerminating: terminating pods of a node that is not Ready and carries the
//   node.kubernetes.io/out-of-service taint.
// A pass runs when a node or such a pod is seen, when a quarantine ends, and every gcCheckPeriod
// (20s), all on the server's clock.
import type { Node } from '../../../api/core/v1/node.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { errorText } from '../../../server/logging/error-text.js';
import type { Logger } from '../../../server/logging/logger.js';
import type { APIClient } from '../simulation/api-client.js';
import { periodically, rfc3339, type SimClock } from '../simulation/clock.js';
import { keyOf, type Informer } from '../simulation/informer.js';
import { WorkLoop } from '../simulation/work-loop.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';
import { markFailedAndDeletePod } from './mark-failed-and-delete.js';
import { terminatedPodsToDelete } from './terminated-pods.js';

const gcCheckPeriodMs = 20_000;
/** How long a node is missing before its pods are taken for orphans (kube's quarantineTime). */
export const quarantineMs = 40_000;
const passKey = 'gc';
/** v1.TaintNodeOutOfService. */
const outOfServiceTaint = 'node.kubernetes.io/out-of-service';

const orphanCondition = {
  type: 'DisruptionTarget',
  status: 'True',
  reason: 'DeletionByPodGC',
  message: 'PodGC: node no longer exists',
};

export interface PodGCOptions {
  readonly client: APIClient;
  readonly pods: Informer<Pod>;
  readonly nodes: Informer<Node>;
  readonly clock: SimClock;
  readonly logger: Logger;
  /**
   * How many terminated pods may exist before the surplus is deleted (--terminated-pod-gc-threshold);
   * at or below 0 none are. Default: kube-controller-manager's, 12500.
   */
  readonly terminatedPodThreshold?: number | undefined;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

type GCReason = 'orphaned' | 'unscheduled' | 'outOfService';

/** kube-controller-manager's default --terminated-pod-gc-threshold. */
export const defaultTerminatedPodThreshold = 12_500;

/** nodeutil.IsNodeReady and the out-of-service taint: gcTerminating's test of a node. */
const outOfService = (node: Node): boolean =>
  !(node.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True') &&
  (node.spec?.taints ?? []).some((t) => t.key === outOfServiceTaint);

export class PodGC {
  readonly #opts: PodGCOptions;
  readonly #client: APIClient;
  readonly #loop: WorkLoop;
  /** Missing nodes that pods are bound to: when each was first seen missing, and its timer. */
  readonly #missing = new Map<string, { readonly since: number; readonly cancel: () => void }>();
  #stopTicking: (() => void) | undefined;

  constructor(opts: PodGCOptions) {
    this.#opts = opts;
    this.#client = opts.client.as('pod-garbage-collector');
    this.#loop = new WorkLoop({
      queueName: 'podgc',
      workqueueMetrics: opts.workqueueMetrics,

      name: 'pod-garbage-collector',
      logger: opts.logger,
      sync: () => this.#pass(),
    });
    opts.nodes.addHandler((type, node) => {
      if (type === 'DELETED' || outOfService(node)) this.#loop.queue.add(passKey);
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
    for (const { cancel } of this.#missing.values()) cancel();
    this.#missing.clear();
    await this.#loop.close();
  }

  /** Why the pod may have to go; an orphan only once its node's quarantine is over. */
  #collectable(pod: Pod): GCReason | undefined {
    const name = pod.spec?.nodeName ?? '';
    const terminating = pod.metadata?.deletionTimestamp !== undefined;
    if (name === '') return terminating ? 'unscheduled' : undefined;
    const node = this.#opts.nodes.get(name);
    if (node === undefined) return 'orphaned';
    return terminating && outOfService(node) ? 'outOfService' : undefined;
  }

  /** Whether the missing node's quarantine is over; starts it (and its timer) when first seen. */
  #quarantineOver(node: string, now: number): boolean {
    const seen = this.#missing.get(node);
    if (seen !== undefined) return now - seen.since >= quarantineMs;
    const cancel = this.#opts.clock.after(quarantineMs, () => {
      this.#loop.queue.add(passKey);
    });
    this.#missing.set(node, { since: now, cancel });
    return false;
  }

  /** Forgets the quarantine of nodes that are back or that no pod is bound to any more. */
  #forgetMissing(pods: readonly Pod[]): void {
    const referenced = new Set(pods.map((p) => p.spec?.nodeName ?? ''));
    for (const [node, { cancel }] of this.#missing) {
      if (referenced.has(node) && this.#opts.nodes.get(node) === undefined) continue;
      cancel();
      this.#missing.delete(node);
    }
  }

  async #pass(): Promise<void> {
    const now = this.#opts.clock.now();
    const pods = this.#opts.pods.list();
    const failed: string[] = [];
    const collect = async (pod: Pod, why?: GCReason): Promise<void> => {
      try {
        await markFailedAndDeletePod({
          client: this.#client,
          pod,
          now: rfc3339(now),
          condition: why === 'orphaned' ? orphanCondition : undefined,
        });
      } catch (err) {
        // As kube, one pod that cannot be collected does not hold back the others.
        this.#opts.logger.v(2, `pod-garbage-collector: collecting ${keyOf(pod)} failed`, {
          err: errorText(err),
        });
        failed.push(keyOf(pod));
      }
    };
    // kube's gc() collects the terminated surplus first, from the same listing.
    const surplus = terminatedPodsToDelete(
      pods,
      this.#opts.terminatedPodThreshold ?? defaultTerminatedPodThreshold,
    );
    if (surplus.length > 0) {
      this.#opts.logger.info('Garbage collecting pods', { numPods: surplus.length });
      for (const pod of surplus) await collect(pod);
    }
    const gone = new Set(surplus);
    for (const pod of pods) {
      const why = gone.has(pod) ? undefined : this.#collectable(pod);
      if (why === undefined) continue;
      if (why === 'orphaned' && !this.#quarantineOver(pod.spec?.nodeName ?? '', now)) continue;
      await collect(pod, why);
    }
    this.#forgetMissing(pods);
    if (failed.length > 0) throw new Error(`pods not collected: ${failed.join(', ')}`);
  }
}
