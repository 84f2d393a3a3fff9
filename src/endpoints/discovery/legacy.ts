// The unaggregated discovery documents (k8s.io/apiserver/pkg/endpoints/discovery): /api,
// /apis, /apis/<group> and the APIResourceList of each group version.
import type { GroupRoutes, GroupVersionRoutes } from '../route-table.js';
import type { APIGroup, GroupVersionForDiscovery } from './types.js';

const gvString = (group: string, version: string): string => (group === '' ? version : `${group}/${version}`);

/** /api: the core group's versions and where clients reach the server. Kube sends no apiVersion here. */
export function apiVersions(core: GroupRoutes | undefined, serverAddress: string): object {
  return {
    kind: 'APIVersions',
    versions: core?.versions ?? [],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

export function apiGroup(group: GroupRoutes): APIGroup {
  const versions: GroupVersionForDiscovery[] = group.versions.map((v) => ({
    groupVersion: gvString(group.name, v),
    version: v,
  }));
  const preferred = versions[0] ?? { groupVersion: '', version: '' };
  return { name: group.name, versions, preferredVersion: preferred };
}

/** /apis: every named group. */
export function apiGroupList(groups: readonly GroupRoutes[]): object {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: groups.filter((g) => g.name !== '').map(apiGroup),
  };
}

/** /apis/<group>. */
export function apiGroupDocument(group: GroupRoutes): object {
  return { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(group) };
}

/** /api/v1 or /apis/<group>/<version>; the core one, as kube's, without apiVersion. */
export function apiResourceList(gv: GroupVersionRoutes): object {
  const head = gv.group === '' ? { kind: 'APIResourceList' } : { kind: 'APIResourceList', apiVersion: 'v1' };
  return { ...head, groupVersion: gvString(gv.group, gv.version), resources: gv.apiResources };
}
