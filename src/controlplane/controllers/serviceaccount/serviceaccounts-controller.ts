// The service accounts controller (pkg/controller/serviceaccount/serviceaccounts_controller.go):
// makes sure every active namespace has a `default` ServiceAccount, creating it when a namespace
// appears and again when the account is deleted. Runs inside the API server against the served
// (admitted) storages, started by a post-start hook.
import type { KubeObject } from '../../../api/meta.js';
import { StatusError } from '../../../machinery/errors/index.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import {
  isCreater,
  isGetter,
  isLister,
  isWatcher,
  type Creater,
  type Getter,
  type Lister,
  type Watcher,
} from '../../../registry/rest/capabilities.js';
import { internalContext } from '../../../registry/rest/context.js';
import type { Logger } from '../../../server/logging/logger.js';
import { everyNamespace, getNamespace, QueueController } from '../queue-controller.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';

export interface ServiceAccountsControllerOptions {
  readonly namespaces: Getter & Lister & Watcher;
  readonly serviceAccounts: Getter & Lister & Watcher & Creater;
  readonly logger: Logger;
  /** The accounts every namespace gets (kube: `default`). */
  readonly serviceAccountNames?: readonly string[];
  readonly resyncPeriodMs?: number;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

const codeOf = (err: unknown): number | undefined =>
  err instanceof StatusError ? err.status.code : undefined;

export class ServiceAccountsController {
  readonly #opts: ServiceAccountsControllerOptions;
  readonly #names: readonly string[];
  readonly #loop: QueueController;

  constructor(opts: ServiceAccountsControllerOptions) {
    this.#opts = opts;
    this.#names = opts.serviceAccountNames ?? ['default'];
    this.#loop = new QueueController({
      queueName: 'serviceaccount',
      workqueueMetrics: opts.workqueueMetrics,
      name: 'serviceaccount',
      logger: opts.logger,
      logPrefix: 'serviceaccount controller',
      resyncPeriodMs: opts.resyncPeriodMs,
      sources: [
        everyNamespace(opts.namespaces),
        {
          what: 'serviceaccounts',
          source: opts.serviceAccounts,
          onEvent: (type, obj, queue) => {
            if (type === 'DELETED' && this.#names.includes(obj.metadata?.name ?? ''))
              queue.add(obj.metadata?.namespace ?? '');
          },
        },
      ],
      sync: (key) => this.#syncNamespace(key),
      onSyncError: (key, err) => {
        opts.logger.error(`syncing service accounts of namespace ${key} failed`, err);
        this.#loop.queue.addRateLimited(key);
      },
    });
  }

  /** Starts watching namespaces and service accounts; returns at once. */
  run(): void {
    this.#loop.run();
  }

  close(): Promise<void> {
    return this.#loop.close();
  }

  /** syncNamespace: only Active namespaces get accounts; one already there is left alone. */
  async #syncNamespace(namespace: string): Promise<void> {
    const signal = this.#loop.signal;
    const ns = await getNamespace(this.#opts.namespaces, namespace, signal);
    if (ns === undefined) return;
    if ((ns.metadata?.deletionTimestamp ?? '') !== '' || (ns.status?.phase ?? 'Active') !== 'Active') return;
    const ctx = internalContext({ namespace, signal });
    for (const name of this.#names) {
      if (await this.#exists(namespace, name)) continue;
      const sa: KubeObject = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } };
      try {
        await this.#opts.serviceAccounts.create(ctx, sa, { options: {} });
      } catch (err) {
        // Made meanwhile, or the namespace started terminating (NamespaceLifecycle forbids).
        const code = codeOf(err);
        if (code === 409 || code === 403) continue;
        throw err;
      }
    }
  }

  async #exists(namespace: string, name: string): Promise<boolean> {
    try {
      await this.#opts.serviceAccounts.get(
        internalContext({ namespace, signal: this.#loop.signal }),
        name,
        {},
      );
      return true;
    } catch (err) {
      if (codeOf(err) === 404) return false;
      throw err;
    }
  }
}

/** The controller over the served API, or undefined when namespaces or serviceaccounts are not served. */
export function newServiceAccountsController(
  groups: readonly APIGroupInfo[],
  opts: Omit<ServiceAccountsControllerOptions, 'namespaces' | 'serviceAccounts'>,
): ServiceAccountsController | undefined {
  const core = groups.find((g) => g.group === '')?.versionedResourcesStorageMap['v1'];
  const namespaces = core?.['namespaces'];
  const serviceAccounts = core?.['serviceaccounts'];
  if (namespaces === undefined || serviceAccounts === undefined) return undefined;
  if (!isGetter(namespaces) || !isLister(namespaces) || !isWatcher(namespaces)) return undefined;
  const sa = serviceAccounts;
  if (!isGetter(sa) || !isLister(sa) || !isWatcher(sa) || !isCreater(sa)) return undefined;
  return new ServiceAccountsController({ ...opts, namespaces, serviceAccounts: sa });
}
