// Where the metrics storages read the simulated cluster from: the server's own pods and nodes stores
// (their watch caches), read on demand, only when a metrics path is asked for.
import type { Node } from '../../../api/core/v1/node.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { newBadRequest } from '../../../machinery/errors/index.js';
import {
  parseSelector as parseFieldSelector,
  type Selector as FieldSelector,
} from '../../../machinery/fields/index.js';
import type { Clock } from '../../../machinery/time/clock.js';
import { defaultFieldLabelConversion } from '../../../registry/generic/predicate.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import { isGetter, isLister, type Getter, type Lister } from '../../../registry/rest/capabilities.js';
import { internalContext, type RequestContext } from '../../../registry/rest/context.js';
import type { ListOptions } from '../../../registry/rest/options.js';

export interface MetricsStores {
  readonly pods: Getter & Lister;
  readonly nodes: Getter & Lister;
  /** The server's clock: every item's timestamp. */
  readonly clock: Clock;
}

/** The core group's pods and nodes storages; undefined when either is not served. */
export function metricsStoresIn(groups: readonly APIGroupInfo[], clock: Clock): MetricsStores | undefined {
  const core = groups.find((g) => g.group === '')?.versionedResourcesStorageMap['v1'];
  const pods = core?.['pods'];
  const nodes = core?.['nodes'];
  if (pods === undefined || nodes === undefined) return undefined;
  if (!isGetter(pods) || !isLister(pods) || !isGetter(nodes) || !isLister(nodes)) return undefined;
  return { pods, nodes, clock };
}

/**
 * The list's field selector, checked as kube's list handler converts it for a kind without field
 * label conversions of its own (only metadata.name and metadata.namespace; 400 otherwise).
 */
export function checkedFieldSelector(options: ListOptions): FieldSelector {
  const parsed = parseFieldSelector(options.fieldSelector ?? '', defaultFieldLabelConversion);
  if (!parsed.ok) throw newBadRequest(parsed.message);
  return parsed.selector;
}

/** Every node, by name. */
export async function nodesByName(stores: MetricsStores, ctx: RequestContext): Promise<Map<string, Node>> {
  const list = await stores.nodes.list(internalContext({ parent: ctx }), { readOnly: true });
  return new Map((list.items as Node[]).map((n) => [n.metadata?.name ?? '', n]));
}

/** The pods of ctx's namespace (every namespace for '') the selectors match. */
export async function podsMatching(
  stores: MetricsStores,
  ctx: RequestContext,
  selectors: { labelSelector?: string; fieldSelector?: string },
): Promise<Pod[]> {
  const list = await stores.pods.list(ctx, { ...selectors, readOnly: true });
  return list.items as Pod[];
}
