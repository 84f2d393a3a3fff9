// The RESTMapper the custom metrics client maps a described object's kind with (RESTMapping of a
// group and kind, no version: the group's versions in priority order), over the served groups; the
// group resource as kube prints it (`deployments.apps`, `pods`).
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import type { ResourceMapper } from './custom-metrics.js';

export function kindMapper(groups: readonly APIGroupInfo[]): ResourceMapper {
  return ({ group, kind }) => {
    for (const g of groups.filter((x) => x.group === group))
      for (const version of g.prioritizedVersions)
        for (const [path, storage] of Object.entries(g.versionedResourcesStorageMap[version] ?? {}))
          if (!path.includes('/') && storage.newObject().kind === kind)
            return { ok: true, resource: group === '' ? path : `${path}.${group}` };
    return {
      ok: false,
      error: `no matches for kind ${JSON.stringify(kind)} in group ${JSON.stringify(group)}`,
    };
  };
}
