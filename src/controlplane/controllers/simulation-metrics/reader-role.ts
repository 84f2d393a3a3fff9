// metrics-server's `system:aggregated-metrics-reader` ClusterRole, which its manifest installs beside
// the API: get, list and watch of metrics.k8s.io pods and nodes, aggregated into the view, edit and
// admin roles. With the simulated metrics API served, a user bound to `view` can run `kubectl top`
// as on a cluster that runs metrics-server. Created once at start, through the registry; an
// existing role (a user's own, or one left by an earlier start) is left as it is.
import type { ClusterRole } from '../../../api/rbac/v1/rbac.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import { isCreater } from '../../../registry/rest/capabilities.js';
import { internalContext } from '../../../registry/rest/context.js';
import type { PostStartHook } from '../../../server/lifecycle/hooks.js';
import { createIfMissing, retryUntilDone } from '../../bootstrap/retry.js';

export const metricsReaderHookName = 'simulate/aggregated-metrics-reader';

const aggregate = 'rbac.authorization.k8s.io/aggregate-to-';

export function metricsReaderRole(): ClusterRole {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: {
      name: 'system:aggregated-metrics-reader',
      labels: {
        'k8s-app': 'metrics-server',
        [`${aggregate}admin`]: 'true',
        [`${aggregate}edit`]: 'true',
        [`${aggregate}view`]: 'true',
      },
    },
    rules: [{ apiGroups: ['metrics.k8s.io'], resources: ['pods', 'nodes'], verbs: ['get', 'list', 'watch'] }],
  };
}

/** The hook by name when the RBAC group is served, else none. */
export function metricsReaderHooks(groups: readonly APIGroupInfo[]): Record<string, PostStartHook> {
  const roles = groups.find((g) => g.group === 'rbac.authorization.k8s.io')?.versionedResourcesStorageMap[
    'v1'
  ]?.['clusterroles'];
  if (roles === undefined || !isCreater(roles)) return {};
  const hook: PostStartHook = (ctx) =>
    retryUntilDone(ctx, { message: 'unable to create system:aggregated-metrics-reader, retrying' }, () =>
      createIfMissing(() =>
        roles.create(internalContext({ signal: ctx.signal }), metricsReaderRole(), { options: {} }),
      ),
    );
  return { [metricsReaderHookName]: hook };
}
