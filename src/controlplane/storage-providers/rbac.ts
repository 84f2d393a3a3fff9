// rbac.authorization.k8s.io (pkg/registry/rbac/rest/storage_rbac.go): roles, clusterroles,
// rolebindings, clusterrolebindings at v1, whose writes are checked for privilege escalation against
// the server's authorizer (`escalate`, `bind`) and the rules the four stores hold.
import {
  newClusterRoleBindingREST,
  newClusterRoleREST,
  newRoleBindingREST,
  newRoleREST,
} from '../../registry/rbac/storage.js';
import { RBACEscalationPolicy } from '../../registry/rbac/escalation.js';
import { groupStorageProvider } from './provider.js';

export const rbacStorageProvider = groupStorageProvider('rbac.authorization.k8s.io', (init) => {
  const escalation = new RBACEscalationPolicy(init.authorizer);
  return {
    group: 'rbac.authorization.k8s.io',
    versions: [
      {
        version: 'v1',
        resources: {
          roles: async (opts) => ({ roles: await newRoleREST({ ...opts, escalation }) }),
          rolebindings: async (opts) => ({ rolebindings: await newRoleBindingREST({ ...opts, escalation }) }),
          clusterroles: async (opts) => ({ clusterroles: await newClusterRoleREST({ ...opts, escalation }) }),
          clusterrolebindings: async (opts) => ({
            clusterrolebindings: await newClusterRoleBindingREST({ ...opts, escalation }),
          }),
        },
      },
    ],
  };
});
