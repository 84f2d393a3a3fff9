// metrics.k8s.io/v1beta1 pods (metrics-server's pkg/api/pod.go): get and list, namespaced, no
// singular name. A pod that does not exist is the pods store's 404; one without metrics is
// `podmetrics.metrics.k8s.io "<namespace>/<name>" not found`. Lists take label selectors and the
// metadata field selectors, and come sorted by namespace, then name.
import type { KubeList, KubeObject } from '../../../api/meta.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { Table } from '../../../api/table.js';
import {
  metricsAPIVersion,
  type PodMetrics,
  type PodMetricsList,
} from '../../../api/metrics/v1beta1/types.js';
import { newNotFound } from '../../../machinery/errors/index.js';
import type { Getter, Lister, Scoper, Storage } from '../../../registry/rest/capabilities.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { GetOptions, ListOptions } from '../../../registry/rest/options.js';
import { podMetricsOf } from './metrics-of.js';
import { checkedFieldSelector, nodesByName, podsMatching, type MetricsStores } from './stores.js';
import { podMetricsTableConvertor } from './table.js';

export const podMetricsResource = { group: 'metrics.k8s.io', resource: 'podmetrics' } as const;

type IncludeObject = { includeObject?: 'None' | 'Object' | 'Metadata'; now?: number };

const byNamespaceAndName = (a: PodMetrics, b: PodMetrics): number => {
  const [x, y] = [a.metadata ?? {}, b.metadata ?? {}];
  const [nx, ny] = [x.namespace ?? '', y.namespace ?? ''];
  if (nx !== ny) return nx < ny ? -1 : 1;
  const [mx, my] = [x.name ?? '', y.name ?? ''];
  return mx < my ? -1 : mx > my ? 1 : 0;
};

export class PodMetricsREST implements Storage, Scoper, Getter, Lister {
  readonly #stores: MetricsStores;

  constructor(stores: MetricsStores) {
    this.#stores = stores;
  }

  newObject(): PodMetrics {
    return { apiVersion: metricsAPIVersion, kind: 'PodMetrics', timestamp: '', window: '', containers: [] };
  }
  newList(): PodMetricsList {
    return { kind: 'PodMetricsList', apiVersion: metricsAPIVersion, metadata: {}, items: [] };
  }
  destroy(): void {
    // Nothing is held: the pods and nodes stores are the server's.
  }
  namespaceScoped(): boolean {
    return true;
  }
  singularName(): string {
    return '';
  }

  async get(ctx: RequestContext, name: string, _options: GetOptions): Promise<PodMetrics> {
    const pod = (await this.#stores.pods.get(ctx, name, {})) as Pod;
    const nodes = await nodesByName(this.#stores, ctx);
    const metrics = podMetricsOf(pod, { nodes, now: this.#stores.clock.now() });
    if (metrics === undefined) throw newNotFound(podMetricsResource, `${ctx.namespace}/${name}`);
    return { kind: 'PodMetrics', apiVersion: metricsAPIVersion, ...metrics };
  }

  async list(ctx: RequestContext, options: ListOptions): Promise<PodMetricsList> {
    // The pods store matches metadata.name and metadata.namespace as metrics-server's filter does.
    checkedFieldSelector(options);
    const pods = await podsMatching(this.#stores, ctx, {
      labelSelector: options.labelSelector ?? '',
      fieldSelector: options.fieldSelector ?? '',
    });
    const nodes = await nodesByName(this.#stores, ctx);
    const now = this.#stores.clock.now();
    const items: PodMetrics[] = [];
    for (const pod of pods) {
      const m = podMetricsOf(pod, { nodes, now });
      if (m !== undefined) items.push(m);
    }
    return { ...this.newList(), items: items.sort(byNamespaceAndName) };
  }

  convertToTable(ctx: RequestContext, obj: KubeObject | KubeList, opts: IncludeObject): Table {
    return podMetricsTableConvertor.convertToTable(ctx, obj, opts);
  }
}
