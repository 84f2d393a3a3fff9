// Resources from discovery (custom resources included): each group's preferred version.
import { apiGet, groupVersionPath } from './api.js';

export interface Resource {
  readonly group: string;
  readonly version: string;
  readonly name: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
}

interface APIResourceList {
  resources: { name: string; kind: string; namespaced: boolean; verbs: string[] }[];
}
interface APIGroupList {
  groups: { name: string; preferredVersion: { version: string } }[];
}

async function groupResources(group: string, version: string): Promise<Resource[]> {
  const list = await apiGet<APIResourceList>(groupVersionPath(group, version));
  return list.resources
    .filter((r) => !r.name.includes('/'))
    .map((r) => ({ group, version, name: r.name, kind: r.kind, namespaced: r.namespaced, verbs: r.verbs }));
}

export async function discover(): Promise<Resource[]> {
  const groups = await apiGet<APIGroupList>('/apis');
  const lists = await Promise.all([
    groupResources('', 'v1'),
    ...groups.groups.map((g) => groupResources(g.name, g.preferredVersion.version).catch(() => [])),
  ]);
  return lists.flat();
}

export const groupLabel = (group: string): string => (group === '' ? 'core' : group);

export const findResource = (all: readonly Resource[], group: string, name: string): Resource | undefined =>
  all.find((r) => r.group === group && r.name === name);

export const resourceOfKind = (
  all: readonly Resource[],
  apiVersion: string,
  kind: string,
): Resource | undefined => {
  const group = apiVersion.includes('/') ? (apiVersion.split('/')[0] ?? '') : '';
  return all.find((r) => r.group === group && r.kind === kind);
};
