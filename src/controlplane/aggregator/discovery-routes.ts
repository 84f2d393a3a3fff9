// Discovery of the aggregated group versions (kube-aggregator's handler_apis.go and its discovery
// manager): each group by groupPriorityMinimum, highest first, then name; its versions by
// versionPriority, highest first; each version's resources as its server last described them.
// Merged after the custom resources' routes, for the API handler's discovery.
import type { APIService } from '../../api/apiregistration/v1/api-service.js';
import type { APIResource } from '../../api/meta/v1/discovery.js';
import type { DynamicRoutes } from '../../endpoints/api-handler.js';
import {
  groupVersionKey,
  type GroupRoutes,
  type GroupVersionRoutes,
  type RouteTable,
} from '../../endpoints/route-table.js';

export function aggregatedRouteTable(
  apiServices: readonly APIService[],
  resources: ReadonlyMap<string, readonly APIResource[]>,
): RouteTable {
  const byGroup = new Map<string, APIService[]>();
  for (const a of apiServices) {
    const group = a.spec.group ?? '';
    if (group === '') continue;
    byGroup.set(group, [...(byGroup.get(group) ?? []), a]);
  }
  const priority = (group: string): number =>
    Math.max(...(byGroup.get(group) ?? []).map((a) => a.spec.groupPriorityMinimum));
  const names = [...byGroup.keys()].sort((a, b) => priority(b) - priority(a) || (a < b ? -1 : a > b ? 1 : 0));
  const groups: GroupRoutes[] = [];
  const groupVersions = new Map<string, GroupVersionRoutes>();
  for (const name of names) {
    const versions = [...(byGroup.get(name) ?? [])].sort(
      (a, b) =>
        b.spec.versionPriority - a.spec.versionPriority ||
        compareVersions(a.spec.version ?? '', b.spec.version ?? ''),
    );
    groups.push({ name, versions: versions.map((a) => a.spec.version ?? '') });
    for (const a of versions) {
      const version = a.spec.version ?? '';
      const listed = [...(resources.get(a.metadata?.name ?? '') ?? [])].sort((x, y) =>
        x.name < y.name ? -1 : x.name > y.name ? 1 : 0,
      );
      groupVersions.set(groupVersionKey(name, version), {
        group: name,
        version,
        resources: new Map(),
        apiResources: listed,
      });
    }
  }
  return { groups, groupVersions };
}

// Kube-like versions (v1, v2beta1, v1alpha1) first, GA > beta > alpha, then by major and minor.
const kubeLike = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

function compareVersions(a: string, b: string): number {
  const ma = kubeLike.exec(a);
  const mb = kubeLike.exec(b);
  if (ma === null || mb === null) return ma !== null ? -1 : mb !== null ? 1 : a < b ? -1 : a > b ? 1 : 0;
  const rank = (m: RegExpExecArray): number => (m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0);
  return rank(mb) - rank(ma) || Number(mb[1]) - Number(ma[1]) || Number(mb[3] ?? 0) - Number(ma[3] ?? 0);
}

/** `first`'s routes with `second`'s groups after them (a group both have stays `first`'s). */
export function composeDynamicRoutes(
  first: DynamicRoutes,
  second: { readonly table: RouteTable },
): DynamicRoutes {
  let from: [RouteTable, RouteTable] | undefined;
  let merged: RouteTable = first.table;
  return {
    get table() {
      const a = first.table;
      const b = second.table;
      if (from?.[0] === a && from[1] === b) return merged;
      const names = new Set(a.groups.map((g) => g.name));
      merged = {
        groupVersions: new Map([...b.groupVersions, ...a.groupVersions]),
        groups: [...a.groups, ...b.groups.filter((g) => !names.has(g.name))],
      };
      from = [a, b];
      return merged;
    },
    settled: () => first.settled?.(),
  };
}
