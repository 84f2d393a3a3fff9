// Aggregated discovery (apidiscovery.k8s.io v2 and v2beta1, discovery/aggregated): every
// resource of every version of a set of groups in one document.
import type { GroupRoutes, RouteTable } from '../route-table.js';
import { groupVersionKey } from '../route-table.js';
import type {
  APIGroupDiscovery,
  APIResourceDiscovery,
  APISubresourceDiscovery,
  APIVersionDiscovery,
} from './types.js';

function versionDiscovery(table: RouteTable, group: string, version: string): APIVersionDiscovery {
  const gv = table.groupVersions.get(groupVersionKey(group, version));
  const resources: APIResourceDiscovery[] = [];
  const subresources = new Map<string, APISubresourceDiscovery[]>();
  // A group version served elsewhere (an aggregated APIService) is known only by its discovery.
  const discoveries =
    gv === undefined
      ? []
      : gv.resources.size > 0
        ? [...gv.resources.values()].map((routes) => routes.discovery)
        : gv.apiResources;
  for (const r of discoveries) {
    const responseKind = { group: r.group ?? group, version: r.version ?? version, kind: r.kind };
    const [parent = '', sub] = r.name.split('/');
    if (sub !== undefined) {
      const list = subresources.get(parent) ?? [];
      list.push({ subresource: sub, responseKind, verbs: r.verbs });
      subresources.set(parent, list);
      continue;
    }
    const d: APIResourceDiscovery = {
      resource: r.name,
      responseKind,
      scope: r.namespaced ? 'Namespaced' : 'Cluster',
      singularResource: r.singularName,
      verbs: r.verbs,
    };
    if (r.shortNames !== undefined) d.shortNames = r.shortNames;
    if (r.categories !== undefined) d.categories = r.categories;
    resources.push(d);
  }
  for (const d of resources) {
    const subs = subresources.get(d.resource);
    if (subs !== undefined) d.subresources = subs;
  }
  return { version, resources, freshness: 'Current' };
}

function groupDiscovery(table: RouteTable, group: GroupRoutes): APIGroupDiscovery {
  const metadata =
    group.name === '' ? { creationTimestamp: null } : { name: group.name, creationTimestamp: null };
  return { metadata, versions: group.versions.map((v) => versionDiscovery(table, group.name, v)) };
}

/** The items of /api (core only) or /apis (every named group). */
export function aggregatedItems(table: RouteTable, core: boolean): APIGroupDiscovery[] {
  return table.groups.filter((g) => (g.name === '') === core).map((g) => groupDiscovery(table, g));
}

export function aggregatedList(items: readonly APIGroupDiscovery[], version: 'v2' | 'v2beta1'): object {
  return { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {}, items };
}
