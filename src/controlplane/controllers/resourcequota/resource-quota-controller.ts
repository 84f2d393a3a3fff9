// The resource quota controller (pkg/controller/resourcequota/resource_quota_controller.go and
// replenishment_controller.go), in-process: a quota's status.hard follows spec.hard and its
// status.used is recounted from storage when the quota is made or changed, when an object it
// counts is deleted (or a pod finishes), and on every resync. Admission charges usage between
// recounts (src/admission/plugin/resourcequota). Namespaces are the queue's keys: a sync recounts
// each quota of one namespace.
import { metadataPeeker } from '../../../storage/metadata-peek.js';
import { setMaxListeners } from 'node:events';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { ResourceQuota } from '../../../api/core/v1/resource-quota.js';
import type { KubeObject } from '../../../api/meta.js';
import {
  equalAmounts,
  amountsOf,
  resourceList,
} from '../../../admission/plugin/resourcequota/evaluator/resources.js';
import { StatusError } from '../../../machinery/errors/index.js';
import { deepCopyJSON } from '../../../machinery/json/deep-copy.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import {
  isLister,
  isUpdater,
  isWatcher,
  type Lister,
  type Storage,
  type Updater,
  type Watcher,
} from '../../../registry/rest/capabilities.js';
import { internalContext } from '../../../registry/rest/context.js';
import type { Logger } from '../../../server/logging/logger.js';
import { QueueController, type WatchedSource } from '../queue-controller.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';
import { calculateUsage } from './calculate-usage.js';

const peekNamespace = metadataPeeker(['namespace']);

export const resourceQuotaControllerHookName = 'start-resource-quota-controller';

/** Deleting one of these frees what a quota counted (kube's replenishment informers). */
const replenished = [
  'pods',
  'services',
  'persistentvolumeclaims',
  'configmaps',
  'secrets',
  'replicationcontrollers',
];

export interface ResourceQuotaControllerOptions {
  readonly groups: readonly APIGroupInfo[];
  readonly logger: Logger;
  /** kube's --resource-quota-sync-period (default 5m). */
  readonly resyncPeriodMs?: number;
  readonly now?: () => number;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

const codeOf = (err: unknown): number | undefined =>
  err instanceof StatusError ? err.status.code : undefined;

const isTerminal = (pod: Pod): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

/** Listable storages by `group/resource`, in each group's preferred version. */
function listersOf(groups: readonly APIGroupInfo[]): Map<string, Storage & Lister> {
  const out = new Map<string, Storage & Lister>();
  for (const g of groups)
    for (const version of g.prioritizedVersions)
      for (const [path, storage] of Object.entries(g.versionedResourcesStorageMap[version] ?? {})) {
        const key = `${g.group}/${path}`;
        if (!path.includes('/') && !out.has(key) && isLister(storage)) out.set(key, storage);
      }
  return out;
}

export class ResourceQuotaController {
  readonly #listers: Map<string, Storage & Lister>;
  readonly #quotas: Lister;
  readonly #status: Updater;
  readonly #now: () => number;
  readonly #loop: QueueController;
  /** The quotas of each namespace the watch has seen, so deletes elsewhere cost nothing. */
  readonly #quotaNames = new Map<string, Set<string>>();

  constructor(opts: ResourceQuotaControllerOptions & { quotas: Lister & Watcher; status: Updater }) {
    this.#listers = listersOf(opts.groups);
    this.#quotas = opts.quotas;
    this.#status = opts.status;
    this.#now = opts.now ?? Date.now;
    this.#loop = new QueueController({
      queueName: 'resourcequota_primary',
      workqueueMetrics: opts.workqueueMetrics,
      name: 'resourcequota',
      logger: opts.logger,
      logPrefix: 'resource quota controller',
      resyncPeriodMs: opts.resyncPeriodMs,
      sources: [this.#quotaSource(opts.quotas), ...this.#replenishmentSources()],
      sync: (namespace) => this.#syncNamespace(namespace),
      onSyncError: (namespace, err) => {
        opts.logger.error(`syncing resource quotas of namespace ${namespace} failed`, err);
        this.#loop.queue.addRateLimited(namespace);
      },
    });
    // Each watched resource's list-watch and watch listen to the one stop signal: more than Node's 10.
    setMaxListeners(4 * (1 + replenished.length), this.#loop.signal);
  }

  run(): void {
    this.#loop.run();
  }

  close(): Promise<void> {
    return this.#loop.close();
  }

  #quotaSource(source: Lister & Watcher): WatchedSource {
    return {
      source,
      what: 'resourcequotas',
      onEvent: (type, obj, queue) => {
        const namespace = obj.metadata?.namespace ?? '';
        const name = obj.metadata?.name ?? '';
        let names = this.#quotaNames.get(namespace);
        if (type === 'DELETED') {
          names?.delete(name);
          if (names?.size === 0) this.#quotaNames.delete(namespace);
          return;
        }
        if (names === undefined) this.#quotaNames.set(namespace, (names = new Set()));
        names.add(name);
        // A resync lists every quota as ADDED: each is recounted then.
        if (type === 'ADDED' || needsRecount(obj as ResourceQuota)) queue.add(namespace);
      },
    };
  }

  #replenishmentSources(): WatchedSource[] {
    const out: WatchedSource[] = [];
    for (const resource of replenished) {
      const source = this.#listers.get(`/${resource}`);
      if (source === undefined || !isWatcher(source)) continue;
      out.push({
        source,
        what: resource,
        // Only a delete, or a pod's update (it may have finished), in a namespace with quotas can
        // free usage: every other event is skipped before its object is decoded.
        concerns: (type, json) => {
          if (type === 'ADDED' || (type === 'MODIFIED' && resource !== 'pods')) return false;
          const namespace = peekNamespace(json)?.namespace;
          return typeof namespace !== 'string' || this.#quotaNames.has(namespace);
        },
        onEvent: (type, obj, queue) => {
          const namespace = obj.metadata?.namespace ?? '';
          if (!this.#quotaNames.has(namespace)) return;
          const freed =
            type === 'DELETED' || (resource === 'pods' && type === 'MODIFIED' && isTerminal(obj as Pod));
          if (freed) queue.add(namespace);
        },
      });
    }
    return out;
  }

  async #list(lister: Lister, namespace: string): Promise<readonly KubeObject[]> {
    const ctx = internalContext({ namespace, signal: this.#loop.signal });
    return (await lister.list(ctx, {})).items;
  }

  /** syncResourceQuota for each quota of the namespace. */
  async #syncNamespace(namespace: string): Promise<void> {
    const quotas = (await this.#list(this.#quotas, namespace)) as ResourceQuota[];
    let stale = false;
    for (const quota of quotas) if (!(await this.#syncQuota(quota))) stale = true;
    if (stale) this.#loop.queue.addRateLimited(namespace);
  }

  /** False when the quota changed while it was counted (an admission charged it): count again. */
  async #syncQuota(quota: ResourceQuota): Promise<boolean> {
    const namespace = quota.metadata?.namespace ?? '';
    const name = quota.metadata?.name ?? '';
    const used = await calculateUsage(quota, {
      listerOf: (key) => this.#listers.get(key),
      list: (lister, ns) => this.#list(lister, ns),
      now: this.#now(),
    });
    const hard = amountsOf(quota.spec?.hard);
    const same =
      equalAmounts(hard, amountsOf(quota.status?.hard)) && equalAmounts(used, amountsOf(quota.status?.used));
    if (same && quota.status?.used !== undefined) return true;
    const resourceVersion = quota.metadata?.resourceVersion ?? '';
    try {
      await this.#status.update(internalContext({ namespace, signal: this.#loop.signal }), name, {
        objInfo: {
          // What was counted is stale once an admission charged the quota: recount then.
          preconditions: () => ({ resourceVersion }),
          updatedObject: (_c, current) => {
            const next = deepCopyJSON((current ?? quota) as ResourceQuota);
            next.status = { hard: resourceList(hard), used: resourceList(used) };
            return Promise.resolve(next);
          },
        },
        options: {},
      });
    } catch (err) {
      if (codeOf(err) === 404) return true;
      if (codeOf(err) === 409) return false;
      throw err;
    }
    return true;
  }
}

/** A quota whose status does not yet follow its spec. */
function needsRecount(q: ResourceQuota): boolean {
  if (q.status?.used === undefined) return true;
  return !equalAmounts(amountsOf(q.spec?.hard), amountsOf(q.status.hard));
}

/** The controller over the served API; undefined when resource quotas are not served. */
export function newResourceQuotaController(
  groups: readonly APIGroupInfo[],
  opts: Omit<ResourceQuotaControllerOptions, 'groups'>,
): ResourceQuotaController | undefined {
  const core = groups.find((g) => g.group === '')?.versionedResourcesStorageMap['v1'];
  const quotas = core?.['resourcequotas'];
  const status = core?.['resourcequotas/status'];
  if (quotas === undefined || !isLister(quotas) || !isWatcher(quotas)) return undefined;
  if (status === undefined || !isUpdater(status)) return undefined;
  return new ResourceQuotaController({ ...opts, groups, quotas, status });
}
