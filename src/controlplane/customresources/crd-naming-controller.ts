// kube's NamingConditionController (apiextensions-apiserver/pkg/controller/status/
// naming_controller.go) for what a write of a CRD cannot settle itself: a CRD refused a name because
// another CRD of its group held it gets it once that CRD is deleted or gives the name up. Like kube,
// a deleted CRD, and a CRD whose accepted names changed, send the other CRDs of the group that wait
// for names back to the sync; a CRD that waits for names or to be Established (an invalid caBundle:
// the establishing controller's part) is synced when it is added or changed too. The sync is the CRD
// store's (`reconsiderNames`), which takes its turn with the group's writes.
import type {
  CustomResourceDefinition,
  CustomResourceDefinitionNames,
} from '../../api/apiextensions/v1/crd.js';
import type { KubeObject } from '../../api/meta.js';
import { sameNames, waitingForNames, waitingToBeEstablished } from '../../registry/apiextensions/naming.js';
import type { Lister, Watcher } from '../../registry/rest/capabilities.js';
import { internalContext, type RequestContext } from '../../registry/rest/context.js';
import type { Logger } from '../../server/logging/logger.js';
import { QueueController } from '../controllers/queue-controller.js';
import type { WorkqueueMetricsProvider } from '../../server/metrics/workqueue-metrics.js';
import type { RateLimitingQueue } from '../controllers/namespace/rate-limiting-queue.js';

/** What syncs one CRD's names (CustomResourceDefinitionStore). */
export interface NamesReconsiderer {
  reconsiderNames(ctx: RequestContext, name: string): Promise<boolean>;
}

export function isNamesReconsiderer(x: unknown): x is NamesReconsiderer {
  return typeof (x as Partial<NamesReconsiderer> | null)?.reconsiderNames === 'function';
}

export interface CRDNamingControllerOptions {
  readonly source: Lister & Watcher;
  readonly crds: NamesReconsiderer;
  readonly logger: Logger;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

interface Known {
  readonly group: string;
  readonly accepted: Partial<CustomResourceDefinitionNames> | undefined;
  readonly waiting: boolean;
}

export class CRDNamingController {
  readonly #loop: QueueController;
  /** The CRDs seen, by name: the informer's lister, reduced to what requeueing needs. */
  readonly #known = new Map<string, Known>();

  constructor(opts: CRDNamingControllerOptions) {
    this.#loop = new QueueController({
      queueName: 'crd_naming_condition_controller',
      workqueueMetrics: opts.workqueueMetrics,
      name: 'crd_naming_condition_controller',
      logger: opts.logger,
      logPrefix: 'NamingConditionController',
      sources: [
        {
          what: 'customresourcedefinitions',
          source: opts.source,
          onEvent: (type, obj, queue) => {
            this.#onEvent(type, obj, queue);
          },
        },
      ],
      sync: async (name) => {
        await opts.crds.reconsiderNames(internalContext({ signal: this.#loop.signal }), name);
      },
      onSyncError: (name, err) => {
        opts.logger.error('Failed to sync the names of a CustomResourceDefinition', err, { crd: name });
        this.#loop.queue.addRateLimited(name);
      },
    });
  }

  run(): void {
    this.#loop.run();
  }

  close(): Promise<void> {
    return this.#loop.close();
  }

  #onEvent(type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: KubeObject, queue: RateLimitingQueue): void {
    const crd = obj as CustomResourceDefinition;
    const name = crd.metadata?.name ?? '';
    const before = this.#known.get(name);
    if (type === 'DELETED') {
      this.#known.delete(name);
      this.#requeueGroup(crd.spec.group, name, queue);
      return;
    }
    const now: Known = {
      group: crd.spec.group,
      accepted: crd.status?.acceptedNames,
      waiting: waitingForNames(crd) || waitingToBeEstablished(crd),
    };
    this.#known.set(name, now);
    if (now.waiting) queue.add(name);
    if (before !== undefined && !sameNames(before.accepted, now.accepted))
      this.#requeueGroup(now.group, name, queue);
  }

  /** requeueAllOtherGroupCRDs, less those that serve all their names (their sync would do nothing). */
  #requeueGroup(group: string, except: string, queue: RateLimitingQueue): void {
    for (const [name, known] of this.#known)
      if (known.group === group && name !== except && known.waiting) queue.add(name);
  }
}
