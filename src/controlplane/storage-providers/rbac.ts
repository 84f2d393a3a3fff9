// rbac.authorization.k8s.io (pkg/registry/rbac/rest/storage_rbac.go): roles, clusterroles,
// rolebindings, clusterrolebindings at v1.
import {
  newClusterRoleBindingREST,
  newClusterRoleREST,
  newRoleBindingREST,
  newRoleREST,
} from '../../registry/rbac/storage.js';
import { groupStorageProvider } from './provider.js';

export const rbacStorageProvider = groupStorageProvider('rbac.authorization.k8s.io', () => ({
  group: 'rbac.authorization.k8s.io',
  versions: [
    {
      version: 'v1',
      resources: {
        roles: async (opts) => ({ roles: await newRoleREST(opts) }),
        rolebindings: async (opts) => ({ rolebindings: await newRoleBindingREST(opts) }),
        clusterroles: async (opts) => ({ clusterroles: await newClusterRoleREST(opts) }),
        clusterrolebindings: async (opts) => ({ clusterrolebindings: await newClusterRoleBindingREST(opts) }),
      },
    },
  ],
}));
