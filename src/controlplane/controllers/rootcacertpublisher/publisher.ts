// The root CA certificate publisher (pkg/controller/certificates/rootcacertpublisher/publisher.go):
// keeps a `kube-root-ca.crt` ConfigMap in every namespace holding the CA that verifies this server
// (`ca.crt`), which the service account credentials volume projects into pods. Recreated when
// deleted, put back when changed. kube runs it in kube-controller-manager; here it runs inside the
// API server against the served (admitted) storages, started by a post-start hook.
import type { ConfigMap } from '../../../api/core/v1/config-map.js';
import { StatusError } from '../../../machinery/errors/index.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import {
  isCreater,
  isGetter,
  isLister,
  isUpdater,
  isWatcher,
  type Creater,
  type Getter,
  type Lister,
  type Updater,
  type Watcher,
} from '../../../registry/rest/capabilities.js';
import { internalContext } from '../../../registry/rest/context.js';
import type { Logger } from '../../../server/logging/logger.js';
import { everyNamespace, getNamespace, QueueController } from '../queue-controller.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';
import { deepCopyJSON } from '../../../machinery/json/deep-copy.js';

export const rootCACertConfigMapName = 'kube-root-ca.crt';
export const descriptionAnnotation = 'kubernetes.io/description';
export const rootCACertDescription =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints ' +
  'such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

export interface RootCACertPublisherOptions {
  readonly namespaces: Getter & Lister & Watcher;
  readonly configMaps: Getter & Lister & Watcher & Creater & Updater;
  /** The PEM published as `ca.crt`. */
  readonly rootCA: string;
  readonly logger: Logger;
  readonly resyncPeriodMs?: number;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

const codeOf = (err: unknown): number | undefined =>
  err instanceof StatusError ? err.status.code : undefined;

const isTerminatingError = (err: unknown): boolean =>
  err instanceof StatusError &&
  (err.status.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating');

export class RootCACertPublisher {
  readonly #opts: RootCACertPublisherOptions;
  readonly #loop: QueueController;

  constructor(opts: RootCACertPublisherOptions) {
    this.#opts = opts;
    this.#loop = new QueueController({
      queueName: 'root_ca_cert_publisher',
      workqueueMetrics: opts.workqueueMetrics,
      name: 'root-ca-cert-publisher',
      logger: opts.logger,
      logPrefix: 'root-ca-cert-publisher',
      resyncPeriodMs: opts.resyncPeriodMs,
      sources: [
        everyNamespace(opts.namespaces),
        {
          what: 'configmaps',
          source: opts.configMaps,
          mentions: rootCACertConfigMapName,
          // kube reacts to updates and deletes of the published ConfigMap only.
          onEvent: (type, obj, queue) => {
            if (type !== 'ADDED' && obj.metadata?.name === rootCACertConfigMapName)
              queue.add(obj.metadata.namespace ?? '');
          },
        },
      ],
      sync: (key) => this.#syncNamespace(key),
      onSyncError: (key, err) => {
        opts.logger.error(`syncing ${rootCACertConfigMapName} in namespace ${key} failed`, err);
        this.#loop.queue.addRateLimited(key);
      },
    });
  }

  /** Starts watching namespaces and configmaps; returns at once. */
  run(): void {
    this.#loop.run();
  }

  close(): Promise<void> {
    return this.#loop.close();
  }

  /** syncNamespace: create the ConfigMap, or put its data and description back. */
  async #syncNamespace(namespace: string): Promise<void> {
    const signal = this.#loop.signal;
    const ns = await getNamespace(this.#opts.namespaces, namespace, signal);
    if (ns === undefined) return;
    // A terminating namespace refuses creates whatever we do.
    if ((ns.metadata?.deletionTimestamp ?? '') !== '') return;
    const ctx = internalContext({ namespace, signal });
    const data = { 'ca.crt': this.#opts.rootCA };
    let cm: ConfigMap;
    try {
      cm = (await this.#opts.configMaps.get(ctx, rootCACertConfigMapName, {})) as ConfigMap;
    } catch (err) {
      if (codeOf(err) !== 404) throw err;
      const fresh: ConfigMap = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: rootCACertConfigMapName,
          namespace,
          annotations: { [descriptionAnnotation]: rootCACertDescription },
        },
        data,
      };
      try {
        await this.#opts.configMaps.create(ctx, fresh, { options: {} });
      } catch (createErr) {
        // Not retried when the namespace is gone or terminating; a conflict means it is there now.
        if (codeOf(createErr) === 404 || codeOf(createErr) === 409 || isTerminatingError(createErr)) return;
        throw createErr;
      }
      return;
    }
    const annotations = cm.metadata?.annotations ?? {};
    const same = Object.keys(cm.data ?? {}).length === 1 && cm.data?.['ca.crt'] === this.#opts.rootCA;
    if (same && (annotations[descriptionAnnotation] ?? '') !== '') return;
    const updated: ConfigMap = deepCopyJSON(cm);
    updated.data = data;
    updated.metadata = {
      ...updated.metadata,
      annotations: { [descriptionAnnotation]: rootCACertDescription, ...annotations },
    };
    await this.#opts.configMaps.update(ctx, rootCACertConfigMapName, {
      objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(updated) },
      options: {},
    });
  }
}

/** The publisher over the served API, or undefined when namespaces or configmaps are not served. */
export function newRootCACertPublisher(
  groups: readonly APIGroupInfo[],
  opts: Omit<RootCACertPublisherOptions, 'namespaces' | 'configMaps'>,
): RootCACertPublisher | undefined {
  const core = groups.find((g) => g.group === '')?.versionedResourcesStorageMap['v1'];
  const namespaces = core?.['namespaces'];
  const cms = core?.['configmaps'];
  if (namespaces === undefined || cms === undefined) return undefined;
  if (!isGetter(namespaces) || !isLister(namespaces) || !isWatcher(namespaces)) return undefined;
  if (!isGetter(cms) || !isLister(cms) || !isWatcher(cms) || !isCreater(cms) || !isUpdater(cms))
    return undefined;
  return new RootCACertPublisher({ ...opts, namespaces, configMaps: cms });
}
