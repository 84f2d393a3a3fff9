// The kinds a server serves, read from its discovery documents (/api, /apis and each group
// version's resource list): the resources themselves, not their subresources.
import type { InProcessServer } from './in-process-server.js';

export interface ServedKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** The plural resource name. */
  readonly resource: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
}

interface APIResourceList {
  groupVersion: string;
  resources: { name: string; namespaced: boolean; kind: string; verbs: string[] }[];
}

interface APIGroupList {
  groups: { name: string; versions: { groupVersion: string; version: string }[] }[];
}

export async function servedKinds(server: InProcessServer): Promise<ServedKind[]> {
  const paths = ['/api/v1'];
  const groups = await server.json<APIGroupList>('/apis');
  for (const g of groups.groups) for (const v of g.versions) paths.push(`/apis/${v.groupVersion}`);
  const out: ServedKind[] = [];
  for (const path of paths) {
    const list = await server.json<APIResourceList>(path);
    const [group, version] = list.groupVersion.includes('/')
      ? (list.groupVersion.split('/') as [string, string])
      : ['', list.groupVersion];
    for (const r of list.resources) {
      if (r.name.includes('/')) continue;
      out.push({ group, version, kind: r.kind, resource: r.name, namespaced: r.namespaced, verbs: r.verbs });
    }
  }
  return out;
}

/** `/api/v1` or `/apis/<group>/<version>`, with the namespace segment for a namespaced kind. */
export function collectionPath(k: ServedKind, namespace: string): string {
  const base = k.group === '' ? `/api/${k.version}` : `/apis/${k.group}/${k.version}`;
  return k.namespaced ? `${base}/namespaces/${namespace}/${k.resource}` : `${base}/${k.resource}`;
}

export const apiVersionOfKind = (k: ServedKind): string =>
  k.group === '' ? k.version : `${k.group}/${k.version}`;
