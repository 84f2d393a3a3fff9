// The RESTMapper the custom metrics client maps a described object's kind with (RESTMapping of a
// group and kind, no version: the group's versions in priority order), over the served groups; the
// group resource as kube prints it (`deployments.apps`, `pods`).
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import type { ResourceMapper } from './custom-metrics.js';
import { mappings } from './scale-targets.js';

export function kindMapper(groups: readonly APIGroupInfo[]): ResourceMapper {
  return ({ group, kind }) => {
    const [first] = mappings(groups, group, kind);
    if (first !== undefined)
      return { ok: true, resource: group === '' ? first.resource : `${first.resource}.${group}` };
    return {
      ok: false,
      error: `no matches for kind ${JSON.stringify(kind)} in group ${JSON.stringify(group)}`,
    };
  };
}
