// The ClusterRole aggregation controller (pkg/controller/clusterroleaggregation): a ClusterRole
// with an aggregationRule holds the rules of the ClusterRoles its selectors match. Any change to
// any ClusterRole queues every aggregated one (the set is small and its dependencies unknown), and
// a sync whose rules differ writes them as kube 1.33 does: a forced server-side apply of just the
// rules, as the `clusterrole-aggregation-controller` field manager. kube runs it in
// kube-controller-manager; here it runs on the served (admitted) ClusterRole store.
import { builtinScheme } from '../../../api/builtin-scheme.js';
import { rbacGroup, type ClusterRole, type PolicyRule } from '../../../api/rbac/v1/rbac.js';
import type { FieldManager } from '../../../endpoints/fieldmanager/field-manager.js';
import { FieldManagers } from '../../../endpoints/fieldmanager/field-managers.js';
import { newNotFound } from '../../../machinery/errors/index.js';
import { goZeroObject } from '../../../machinery/json/go-member-order.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import {
  isLister,
  isUpdater,
  isWatcher,
  type Lister,
  type Updater,
  type Watcher,
} from '../../../registry/rest/capabilities.js';
import { internalContext } from '../../../registry/rest/context.js';
import { errorText } from '../../../server/logging/error-text.js';
import type { Logger } from '../../../server/logging/logger.js';
import { stopReason } from '../../../machinery/errors/stop-reason.js';
import { Informer } from '../simulation/informer.js';
import { WorkLoop } from '../simulation/work-loop.js';
import type { WorkqueueMetricsProvider } from '../../../server/metrics/workqueue-metrics.js';
import { aggregatedRules, isAggregated, sameRules } from '../../../registry/rbac/aggregated-rules.js';

export const clusterRoleAggregationControllerHookName = 'start-clusterrole-aggregation-controller';
export const clusterRoleAggregationFieldManager = 'clusterrole-aggregation-controller';

export interface ClusterRoleAggregationOptions {
  readonly clusterRoles: Lister & Watcher & Updater;
  readonly logger: Logger;
  /** Where the work queue's metrics go (the server's workqueue_*). */
  readonly workqueueMetrics?: WorkqueueMetricsProvider | undefined;
}

const clusterRoleGVK = { group: rbacGroup, version: 'v1', kind: 'ClusterRole' } as const;

/** The field manager of rbac/v1 ClusterRoles, as the API handler builds it. */
function clusterRoleFieldManager(): FieldManager {
  const scheme = builtinScheme();
  const fm = new FieldManagers(scheme, (type) => goZeroObject(scheme, type)).forKind(clusterRoleGVK, '');
  if (fm === undefined) throw new Error('no schema for rbac.authorization.k8s.io/v1 ClusterRole');
  return fm;
}

export class ClusterRoleAggregationController {
  readonly #opts: ClusterRoleAggregationOptions;
  readonly #informer: Informer<ClusterRole>;
  readonly #loop: WorkLoop;
  readonly #abort = new AbortController();
  readonly #fieldManager = clusterRoleFieldManager();
  /** The names of the ClusterRoles with an aggregationRule, which any change queues. */
  readonly #aggregated = new Set<string>();
  #running: Promise<void> | undefined;

  constructor(opts: ClusterRoleAggregationOptions) {
    this.#opts = opts;
    this.#informer = new Informer<ClusterRole>(opts.clusterRoles, (err) => {
      opts.logger.v(2, 'clusterrole-aggregation: list and watch of clusterroles failed, retrying', {
        err: errorText(err),
      });
    });
    this.#loop = new WorkLoop({
      queueName: 'ClusterRoleAggregator',
      workqueueMetrics: opts.workqueueMetrics,

      name: 'ClusterRoleAggregator',
      logger: opts.logger,
      sync: (k) => this.#sync(k),
    });
    this.#informer.addHandler((type, role) => {
      const name = role.metadata?.name ?? '';
      if (type !== 'DELETED' && isAggregated(role)) this.#aggregated.add(name);
      else this.#aggregated.delete(name);
      for (const n of this.#aggregated) this.#loop.queue.add(n);
    });
  }

  /** Starts the informer, then (once it has listed) the worker; returns at once. */
  run(): void {
    if (this.#running !== undefined || this.#abort.signal.aborted) return;
    this.#opts.logger.info('Starting controller', { controller: 'clusterrole-aggregation' });
    const informing = this.#informer.run(this.#abort.signal);
    void this.#informer.synced.then(() => {
      if (!this.#abort.signal.aborted) this.#loop.run();
    });
    this.#running = informing;
  }

  async close(): Promise<void> {
    this.#abort.abort(stopReason);
    await this.#loop.close();
    await this.#running;
  }

  async #sync(name: string): Promise<void> {
    const role = this.#informer.get(name);
    if (role === undefined) return;
    const rules = aggregatedRules(role, this.#informer.list());
    if (rules === undefined || sameRules(role.rules, rules)) return;
    await this.#apply(name, rules);
  }

  /** A forced apply of `{metadata: {name}, rules}` onto the stored role. */
  async #apply(name: string, rules: readonly PolicyRule[]): Promise<void> {
    const applied: ClusterRole = {
      apiVersion: `${rbacGroup}/v1`,
      kind: 'ClusterRole',
      metadata: { name },
      ...(rules.length === 0 ? {} : { rules: [...rules] }),
    };
    const fm = this.#fieldManager;
    await this.#opts.clusterRoles.update(internalContext({ signal: this.#abort.signal }), name, {
      objInfo: {
        managesFields: true,
        preconditions: () => undefined,
        updatedObject: (_ctx, old) => {
          // Deleted since it was read: the informer's delete ends the matter.
          if (old === null) throw newNotFound({ group: rbacGroup, resource: 'clusterroles' }, name);
          return Promise.resolve(
            fm.apply(old, applied, { manager: clusterRoleAggregationFieldManager, force: true }),
          );
        },
      },
      options: { fieldManager: clusterRoleAggregationFieldManager },
    });
  }
}

/** The controller over the served ClusterRoles, or undefined when they are not served. */
export function newClusterRoleAggregationController(
  groups: readonly APIGroupInfo[],
  opts: Omit<ClusterRoleAggregationOptions, 'clusterRoles'>,
): ClusterRoleAggregationController | undefined {
  const s = groups.find((g) => g.group === rbacGroup)?.versionedResourcesStorageMap['v1']?.['clusterroles'];
  if (s === undefined || !isLister(s) || !isWatcher(s) || !isUpdater(s)) return undefined;
  return new ClusterRoleAggregationController({ ...opts, clusterRoles: s });
}
