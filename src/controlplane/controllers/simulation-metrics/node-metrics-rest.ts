// metrics.k8s.io/v1beta1 nodes (metrics-server's pkg/api/node.go): get and list, cluster-scoped,
// no singular name. A node that does not exist is answered as metrics-server's node lister words it
// (`node "<name>" not found`); one without metrics (not simulated, or its kubelet stopped) is
// `nodemetrics.metrics.k8s.io "<name>" not found`. Lists take label selectors and the metadata
// field selectors, and come sorted by name.
import type { Node } from '../../../api/core/v1/node.js';
import type { KubeList, KubeObject } from '../../../api/meta.js';
import type { Table } from '../../../api/table.js';
import {
  metricsAPIVersion,
  type NodeMetrics,
  type NodeMetricsList,
} from '../../../api/metrics/v1beta1/types.js';
import { isStatusError, newNotFound } from '../../../machinery/errors/index.js';
import type { Getter, Lister, Scoper, Storage } from '../../../registry/rest/capabilities.js';
import { internalContext, type RequestContext } from '../../../registry/rest/context.js';
import type { GetOptions, ListOptions } from '../../../registry/rest/options.js';
import { nodeMetricsOf, usageByNode } from './metrics-of.js';
import { checkedFieldSelector, nodesByName, podsMatching, type MetricsStores } from './stores.js';
import { nodeMetricsTableConvertor } from './table.js';

export const nodeMetricsResource = { group: 'metrics.k8s.io', resource: 'nodemetrics' } as const;

type IncludeObject = { includeObject?: 'None' | 'Object' | 'Metadata'; now?: number };

export class NodeMetricsREST implements Storage, Scoper, Getter, Lister {
  readonly #stores: MetricsStores;

  constructor(stores: MetricsStores) {
    this.#stores = stores;
  }

  newObject(): NodeMetrics {
    return { apiVersion: metricsAPIVersion, kind: 'NodeMetrics', timestamp: '', window: '', usage: {} };
  }
  newList(): NodeMetricsList {
    return { kind: 'NodeMetricsList', apiVersion: metricsAPIVersion, metadata: {}, items: [] };
  }
  destroy(): void {
    // Nothing is held: the pods and nodes stores are the server's.
  }
  namespaceScoped(): boolean {
    return false;
  }
  singularName(): string {
    return '';
  }

  async get(ctx: RequestContext, name: string, _options: GetOptions): Promise<NodeMetrics> {
    let node: Node;
    try {
      node = (await this.#stores.nodes.get(ctx, name, {})) as Node;
    } catch (err) {
      // client-go's typed node lister names the resource in the singular.
      if (isStatusError(err) && err.reason === 'NotFound')
        throw newNotFound({ group: '', resource: 'node' }, name);
      throw err;
    }
    const pods = await podsMatching(this.#stores, internalContext({ parent: ctx }), {
      fieldSelector: `spec.nodeName=${name}`,
    });
    const nodes = await nodesByName(this.#stores, ctx);
    const metrics = nodeMetricsOf(node, {
      podsUsage: usageByNode(pods, nodes).get(name),
      now: this.#stores.clock.now(),
    });
    if (metrics === undefined) throw newNotFound(nodeMetricsResource, name);
    return { kind: 'NodeMetrics', apiVersion: metricsAPIVersion, ...metrics };
  }

  async list(ctx: RequestContext, options: ListOptions): Promise<NodeMetricsList> {
    const fieldSelector = checkedFieldSelector(options);
    const selected = await this.#stores.nodes.list(ctx, {
      labelSelector: options.labelSelector ?? '',
      readOnly: true,
    });
    const [pods, nodes] = await Promise.all([
      podsMatching(this.#stores, internalContext({ parent: ctx }), {}),
      nodesByName(this.#stores, ctx),
    ]);
    const used = usageByNode(pods, nodes);
    const now = this.#stores.clock.now();
    const items: NodeMetrics[] = [];
    for (const node of selected.items as Node[]) {
      const name = node.metadata?.name ?? '';
      // metrics-server matches a node's name alone (AddObjectMetaFieldsSet without the namespace).
      if (!fieldSelector.matches({ 'metadata.name': name })) continue;
      const m = nodeMetricsOf(node, { podsUsage: used.get(name), now });
      if (m !== undefined) items.push(m);
    }
    items.sort((a, b) => {
      const [x, y] = [a.metadata?.name ?? '', b.metadata?.name ?? ''];
      return x < y ? -1 : x > y ? 1 : 0;
    });
    return { ...this.newList(), items };
  }

  convertToTable(ctx: RequestContext, obj: KubeObject | KubeList, opts: IncludeObject): Table {
    return nodeMetricsTableConvertor.convertToTable(ctx, obj, opts);
  }
}
