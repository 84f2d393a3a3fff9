// The namespace controller (pkg/controller/namespace/namespace_controller.go): watches namespaces
// and empties each one that is being deleted, retrying until its content is gone and it is
// finalized. Runs inside the API server, against the registry, as a post-start hook starts it.
import type { Namespace } from '../../../api/core/v1/namespace.js';
import type { KubeObject } from '../../../api/meta.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import type { Clock } from '../../../machinery/time/clock.js';
import type { Logger } from '../../../server/logging/logger.js';
import { finalizerKubernetes } from '../../../registry/core/namespace/finalizer-names.js';
import {
  deleteNamespace,
  ResourcesRemainingError,
  type NamespacedResourcesDeleter,
} from './namespaced-resources-deleter.js';
import {
  deletableResources,
  namespaceClient,
  type DeletableResource,
  type NamespaceClient,
} from './served-resources.js';
import { QueueController } from '../queue-controller.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';

export interface NamespaceControllerOptions {
  readonly client: NamespaceClient;
  readonly resources: () => readonly DeletableResource[];
  readonly logger: Logger;
  /** --concurrent-namespace-syncs (kube: 10). */
  readonly workers?: number;
  /**
   * How long after seeing a deletion to start (kube's namespaceDeletionGracePeriod, 5s): lets
   * other API servers refuse new content first and creations still in flight land.
   */
  readonly deletionGracePeriodMs?: number;
  /** --namespace-sync-period: how often every namespace is looked at again (kube: 5m). */
  readonly resyncPeriodMs?: number;
  /** The wait before looking again at content that is going away (kube: estimate/2 + 1 seconds). */
  readonly remainingDelayMs?: (estimateSeconds: number) => number;
  /** The server's clock: the waits above and the pods' grace periods run on it (default: the system's). */
  readonly clock?: Clock;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

const kubeRemainingDelayMs = (estimate: number): number => (Math.floor(estimate / 2) + 1) * 1000;

export class NamespaceController {
  readonly #opts: NamespaceControllerOptions;
  readonly #deleter: NamespacedResourcesDeleter;
  readonly #loop: QueueController;

  constructor(opts: NamespaceControllerOptions) {
    this.#opts = opts;
    const clock = opts.clock;
    this.#deleter = {
      client: opts.client,
      resources: opts.resources,
      finalizerToken: finalizerKubernetes,
      logger: opts.logger,
      ...(clock === undefined ? {} : { now: () => clock.now() }),
    };
    this.#loop = new QueueController({
      queueName: 'namespace',
      workqueueMetrics: opts.workqueueMetrics,
      name: 'namespace',
      logger: opts.logger,
      workers: opts.workers ?? 10,
      logPrefix: 'namespace controller',
      resyncPeriodMs: opts.resyncPeriodMs,
      ...(opts.clock === undefined ? {} : { clock: opts.clock }),
      // List, then watch from the list's revision; relist on every end of the watch and each resync.
      sources: [
        {
          source: opts.client.namespaces,
          onEvent: (type, obj) => {
            if (type !== 'DELETED') this.#enqueue(obj);
          },
        },
      ],
      sync: (key) => deleteNamespace(this.#deleter, this.#loop.signal, key),
      onSyncError: (key, err) => {
        this.#requeue(key, err);
      },
    });
  }

  /** Starts watching and the workers; returns at once. */
  run(): void {
    this.#loop.run();
  }

  /** Stops watching and waits for the syncs in progress to end. */
  close(): Promise<void> {
    return this.#loop.close();
  }

  /** enqueueNamespace: only namespaces being deleted, after the grace period. */
  #enqueue(obj: KubeObject): void {
    const ns = obj as Namespace;
    if ((ns.metadata?.deletionTimestamp ?? '') === '') return;
    this.#loop.queue.addAfter(ns.metadata?.name ?? '', this.#opts.deletionGracePeriodMs ?? 5000);
  }

  #requeue(key: string, err: unknown): void {
    if (err instanceof ResourcesRemainingError) {
      this.#opts.logger.v(4, 'Content remaining in namespace', { namespace: key, waitSeconds: err.estimate });
      this.#loop.queue.addAfter(key, (this.#opts.remainingDelayMs ?? kubeRemainingDelayMs)(err.estimate));
      return;
    }
    this.#loop.queue.addRateLimited(key);
    this.#opts.logger.error(`deletion of namespace ${key} failed`, err);
  }
}

/** The controller over the served API, or undefined when namespaces are not served. */
export function newNamespaceController(
  groups: readonly APIGroupInfo[],
  opts: Omit<NamespaceControllerOptions, 'client' | 'resources'> & {
    /** Groups served besides `groups` that change over time (custom resources), asked at each sync. */
    readonly dynamicGroups?: () => readonly APIGroupInfo[];
  },
): NamespaceController | undefined {
  const client = namespaceClient(groups);
  if (client === undefined) return undefined;
  const builtin = deletableResources(groups);
  const { dynamicGroups, ...rest } = opts;
  const resources =
    dynamicGroups === undefined ? () => builtin : () => [...builtin, ...deletableResources(dynamicGroups())];
  return new NamespaceController({ ...rest, client, resources });
}
