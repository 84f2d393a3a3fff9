// The aggregation layer (kube-aggregator inside kube-apiserver): keeps the APIServices from a
// list-and-watch, registers the local ones (local-apiservices.ts), checks the others' servers
// (availability.ts) when they change and every resync period, serves their discovery
// (discovery-routes.ts) and hands their requests to the proxy (proxy.ts); an APIService that is
// not Available answers 503 `service unavailable`, as kube's proxy handler does.
import type { APIService, APIServiceCondition } from '../../api/apiregistration/v1/api-service.js';
import type { CustomResourceDefinition } from '../../api/apiextensions/v1/crd.js';
import type { KubeObject } from '../../api/meta.js';
import type { APIResource } from '../../api/meta/v1/discovery.js';
import { EndpointServiceResolver, type ServiceResolver } from '../../registry/webhook/service-resolver.js';
import type { APIRequest, ProxiedGroupVersions } from '../../endpoints/api-handler.js';
import type { RouteTable } from '../../endpoints/route-table.js';
import { isStatusError } from '../../machinery/errors/index.js';
import { rfc3339 } from '../../registry/generic/object-meta.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import {
  isCreater,
  isGetter,
  isGracefulDeleter,
  isLister,
  isUpdater,
  isWatcher,
  type Storage,
} from '../../registry/rest/capabilities.js';
import { internalContext } from '../../registry/rest/context.js';
import type { Logger } from '../../server/logging/logger.js';
import { runListWatch } from '../controllers/list-watch.js';
import { checkAvailability, proxyTarget, type AvailabilityResult } from './availability.js';
import { aggregatedRouteTable } from './discovery-routes.js';
import { desiredLocalAPIServices, localAvailable, managedBy, matchesDesired } from './local-apiservices.js';
import { AggregatedOpenAPISpecs } from './openapi-specs.js';
import { AggregatorProxy, writeProxyError, type ProxyClientCert } from './proxy.js';
import { stopReason } from '../../machinery/errors/stop-reason.js';
import type { APIServiceAvailabilityMetric } from '../../server/metrics/apiserver-metrics.js';

export interface AggregatorOptions {
  readonly groups: readonly APIGroupInfo[];
  /** The CRDs, served or not, and a way to hear of changes (crdregistration). */
  readonly customResources: {
    readonly definitions: readonly CustomResourceDefinition[];
    onChange(listener: () => void): () => void;
  };
  readonly logger: Logger;
  readonly proxyClientCert?: ProxyClientCert | undefined;
  /** How often every APIService with a service is checked again (default 5 s). */
  readonly resyncPeriodMs?: number;
  /** The server's clock (ms), which stamps the conditions (default: the system's). */
  readonly now?: () => number;
  /** Where each APIService's availability is reported (kube-aggregator's status metrics). */
  readonly metrics?: APIServiceAvailabilityMetric | undefined;
}

type Condition = Omit<APIServiceCondition, 'lastTransitionTime'>;

function storageOf(groups: readonly APIGroupInfo[], group: string, resource: string): Storage | undefined {
  return groups.find((g) => g.group === group)?.versionedResourcesStorageMap['v1']?.[resource];
}

const emptyTable: RouteTable = { groups: [], groupVersions: new Map() };

const availableOf = (a: APIService): APIServiceCondition | undefined =>
  a.status?.conditions?.find((c) => c.type === 'Available');

export class Aggregator implements ProxiedGroupVersions {
  readonly #o: AggregatorOptions;
  readonly #store: Storage | undefined;
  readonly #status: Storage | undefined;
  readonly #resolver: ServiceResolver | undefined;
  readonly #services: Storage | undefined;
  readonly #proxy: AggregatorProxy;
  /** The backends' OpenAPI, which /openapi merges in. */
  readonly openAPI: AggregatedOpenAPISpecs;
  readonly #abort = new AbortController();
  readonly #cache = new Map<string, APIService>();
  /** group/version → the name of the APIService with a service that claims it. */
  readonly #remote = new Map<string, string>();
  readonly #resources = new Map<string, readonly APIResource[]>();
  readonly #checking = new Set<string>();
  readonly #checkedSpecs = new Map<string, string>();
  #table: RouteTable = emptyTable;
  #reconcile: Promise<void> | undefined;
  #again = false;
  #timer: NodeJS.Timeout | undefined;
  #unsubscribe: (() => void) | undefined;
  /** Whether the APIServices have been listed: the reconcile after it completes the first sync. */
  #listed = false;
  #synced!: () => void;
  /**
   * Resolves once the local APIServices have been registered and marked Available after the first
   * list (kube's autoregister-completion), or at once when there is nothing to register.
   */
  readonly firstSync = new Promise<void>((resolve) => {
    this.#synced = resolve;
  });

  constructor(o: AggregatorOptions) {
    this.#o = o;
    this.#store = storageOf(o.groups, 'apiregistration.k8s.io', 'apiservices');
    this.#status = storageOf(o.groups, 'apiregistration.k8s.io', 'apiservices/status');
    this.#services = storageOf(o.groups, '', 'services');
    const slices = storageOf(o.groups, 'discovery.k8s.io', 'endpointslices');
    const endpoints = storageOf(o.groups, '', 'endpoints');
    this.#resolver =
      this.#services !== undefined && isGetter(this.#services)
        ? new EndpointServiceResolver({
            services: this.#services,
            endpointSlices: slices !== undefined && isLister(slices) ? slices : undefined,
            endpoints: endpoints !== undefined && isGetter(endpoints) ? endpoints : undefined,
          })
        : undefined;
    this.#proxy = new AggregatorProxy(o.proxyClientCert);
    this.openAPI = new AggregatedOpenAPISpecs(this.#proxy);
  }

  /** Discovery of the aggregated group versions; a new object whenever it changes. */
  get table(): RouteTable {
    return this.#table;
  }

  has(group: string, version: string): boolean {
    return this.#remote.has(`${group}/${version}`);
  }

  async serve(r: APIRequest): Promise<void> {
    const [, group = '', version = ''] = r.url.pathname.split('/').filter((s) => s !== '');
    const apiService = this.#cache.get(this.#remote.get(`${group}/${version}`) ?? '');
    if (apiService === undefined || availableOf(apiService)?.status !== 'True') {
      writeProxyError(r.res, 503, 'service unavailable');
      return;
    }
    let target;
    try {
      target = await proxyTarget(apiService, this.#resolver, r.signal);
    } catch {
      writeProxyError(r.res, 503, 'service unavailable');
      return;
    }
    await this.#proxy.forward(r, target, () => {
      this.#check(apiService.metadata?.name ?? '');
    });
  }

  run(): void {
    const store = this.#store;
    if (store === undefined || !isLister(store) || !isWatcher(store)) {
      this.#synced();
      return;
    }
    this.#unsubscribe = this.#o.customResources.onChange(() => {
      this.#scheduleReconcile();
    });
    void runListWatch({
      source: store,
      signal: this.#abort.signal,
      onList: (items) => {
        this.#cache.clear();
        for (const item of items) this.#cache.set(item.metadata?.name ?? '', item as APIService);
        this.#listed = true;
        this.#changed();
      },
      onEvent: (type, obj) => {
        this.#apply(type, obj);
        this.#changed();
      },
      onError: (err) => {
        this.#o.logger.error('watching APIServices failed', err);
      },
    });
    this.#timer = setInterval(() => {
      for (const name of this.#remote.values()) this.#check(name);
    }, this.#o.resyncPeriodMs ?? 5000);
  }

  async close(): Promise<void> {
    this.#abort.abort(stopReason);
    this.#synced();
    clearInterval(this.#timer);
    this.#unsubscribe?.();
    this.#proxy.close();
    await this.#reconcile;
  }

  #apply(type: string, obj: KubeObject): void {
    const name = obj.metadata?.name ?? '';
    if (type === 'DELETED') {
      this.#cache.delete(name);
      this.#o.metrics?.delete(name);
    } else {
      this.#cache.set(name, obj as APIService);
      // As the status controllers set the gauge after each sync: from the stored condition.
      this.#o.metrics?.set(name, availableOf(obj as APIService)?.status === 'True');
    }
  }

  /** After any change of the cache: the remote index, the discovery table, checks and reconciling. */
  #changed(): void {
    this.#remote.clear();
    const remote: APIService[] = [];
    for (const [name, a] of this.#cache) {
      if ((a.spec.service ?? null) === null) continue;
      remote.push(a);
      this.#remote.set(`${a.spec.group ?? ''}/${a.spec.version ?? ''}`, name);
      const spec = JSON.stringify(a.spec);
      if (this.#checkedSpecs.get(name) !== spec) {
        this.#checkedSpecs.set(name, spec);
        this.#check(name);
      }
    }
    for (const name of [...this.#resources.keys()]) if (!this.#cache.has(name)) this.#resources.delete(name);
    for (const name of [...this.#checkedSpecs.keys()]) if (!this.#cache.has(name)) this.openAPI.remove(name);
    for (const name of [...this.#checkedSpecs.keys()])
      if (!this.#cache.has(name)) this.#checkedSpecs.delete(name);
    this.#table = aggregatedRouteTable(remote, this.#resources);
    this.#scheduleReconcile();
  }

  #check(name: string): void {
    if (this.#checking.has(name) || this.#abort.signal.aborted) return;
    const apiService = this.#cache.get(name);
    if (apiService === undefined || (apiService.spec.service ?? null) === null) return;
    this.#checking.add(name);
    void checkAvailability(apiService, {
      services: this.#services !== undefined && isGetter(this.#services) ? this.#services : undefined,
      resolver: this.#resolver,
      proxy: this.#proxy,
    })
      .then(async (result: AvailabilityResult) => {
        if (result.resources !== undefined) {
          this.#resources.set(name, result.resources);
          this.#table = aggregatedRouteTable(
            [...this.#cache.values()].filter((a) => (a.spec.service ?? null) !== null),
            this.#resources,
          );
        }
        await this.#setCondition(name, result.condition);
        if (result.condition.status !== 'True') this.openAPI.remove(name);
        else if (this.openAPI.due(name))
          await this.openAPI.refresh(
            apiService,
            await proxyTarget(apiService, this.#resolver, this.#abort.signal),
          );
      })
      .catch((err: unknown) => {
        if (!this.#abort.signal.aborted) this.#o.logger.error(`checking APIService ${name} failed`, err);
      })
      .finally(() => {
        this.#checking.delete(name);
      });
  }

  /** SetAPIServiceCondition: a new transition time only when the status changes; no write when equal. */
  async #setCondition(name: string, condition: Condition): Promise<void> {
    const status = this.#status;
    if (status === undefined || !isUpdater(status)) return;
    const current = this.#cache.get(name);
    const old = current === undefined ? undefined : availableOf(current);
    if (
      old !== undefined &&
      old.status === condition.status &&
      (old.reason ?? '') === (condition.reason ?? '') &&
      (old.message ?? '') === (condition.message ?? '')
    )
      return;
    await status.update(internalContext({ signal: this.#abort.signal }), name, {
      objInfo: {
        preconditions: () => undefined,
        updatedObject: (_ctx, stored) => {
          const next = structuredClone(stored) as APIService;
          const conditions = (next.status?.conditions ?? []).filter((c) => c.type !== 'Available');
          const before = stored === null ? undefined : availableOf(stored as APIService);
          const lastTransitionTime =
            before?.status === condition.status && before.lastTransitionTime !== undefined
              ? before.lastTransitionTime
              : rfc3339(new Date((this.#o.now ?? Date.now)()));
          const { type, status: value, reason, message } = condition;
          // Go's member order: type, status, lastTransitionTime, reason, message.
          const fresh: APIServiceCondition = { type, status: value, lastTransitionTime };
          if (reason !== undefined) fresh.reason = reason;
          if (message !== undefined) fresh.message = message;
          next.status = { conditions: [...conditions, fresh] };
          return Promise.resolve(next);
        },
      },
      options: {},
    });
    // SetUnavailableCounter: counted once this write has taken an available APIService away.
    if (old?.status === 'True' && condition.status !== 'True')
      this.#o.metrics?.becameUnavailable(name, condition.reason ?? 'UnknownReason');
  }

  #scheduleReconcile(): void {
    if (this.#reconcile !== undefined) {
      this.#again = true;
      return;
    }
    this.#reconcile = this.#reconcileLocal()
      .catch((err: unknown) => {
        if (!this.#abort.signal.aborted)
          this.#o.logger.error('registering the local APIServices failed', err);
        // Readiness is not held back for ever by a store that fails: the failure is logged.
        this.#synced();
      })
      .finally(() => {
        this.#reconcile = undefined;
        if (this.#again && !this.#abort.signal.aborted) {
          this.#again = false;
          this.#scheduleReconcile();
        } else if (this.#listed && this.#localsAvailable()) this.#synced();
      });
  }

  /** Whether every local APIService there should be is in the cache and marked Available. */
  #localsAvailable(): boolean {
    for (const name of desiredLocalAPIServices(this.#o.groups, this.#o.customResources.definitions).keys()) {
      const current = this.#cache.get(name);
      if (current === undefined || availableOf(current)?.status !== 'True') return false;
    }
    return true;
  }

  async #reconcileLocal(): Promise<void> {
    const store = this.#store;
    if (store === undefined || !isCreater(store) || !isUpdater(store) || !isGracefulDeleter(store)) return;
    const ctx = internalContext({ signal: this.#abort.signal });
    const desired = desiredLocalAPIServices(this.#o.groups, this.#o.customResources.definitions);
    // The writes of one pass go together: a store commits them in a few batches, not one by one.
    const writes: Promise<unknown>[] = [];
    for (const [name, want] of desired) {
      const current = this.#cache.get(name);
      if (current === undefined) {
        writes.push(
          store.create(ctx, structuredClone(want), { options: {} }).catch((err: unknown) => {
            // Created since the cache last heard: the watch brings it.
            if (!(isStatusError(err) && err.reason === 'AlreadyExists')) throw err;
          }),
        );
      } else if (managedBy(current) !== undefined && !matchesDesired(current, want))
        writes.push(
          store.update(ctx, name, {
            objInfo: {
              preconditions: () => undefined,
              updatedObject: (_c, stored) => {
                const next = structuredClone(stored) as APIService;
                next.metadata = {
                  ...next.metadata,
                  labels: { ...next.metadata?.labels, ...want.metadata?.labels },
                };
                next.spec = want.spec;
                return Promise.resolve(next);
              },
            },
            options: {},
          }),
        );
    }
    for (const [name, current] of this.#cache) {
      if (managedBy(current) !== undefined && !desired.has(name))
        writes.push(store.delete(ctx, name, { options: {} }));
      else if ((current.spec.service ?? null) === null) writes.push(this.#setCondition(name, localAvailable));
    }
    await Promise.all(writes);
  }
}
