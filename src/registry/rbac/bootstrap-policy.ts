// The default RBAC policy kube-apiserver's `rbac/bootstrap-roles` post-start hook reconciles
// (pkg/registry/rbac/rest/storage_rbac.go PostStartHook): the cluster roles and the controllers'
// roles, their bindings, and the roles and bindings of kube-system and kube-public. The data is in
// bootstrappolicy/, one file per kind.
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../../api/rbac/v1/rbac.js';
import { clusterRoleBindings } from './bootstrappolicy/cluster-role-bindings.js';
import { clusterRoles } from './bootstrappolicy/cluster-roles.js';
import { controllerRoleBindings, controllerRoles } from './bootstrappolicy/controller-roles.js';
import { namespaceRoleBindings, namespaceRoles } from './bootstrappolicy/namespace-roles.js';

export const bootstrapClusterRoles: readonly ClusterRole[] = [...clusterRoles, ...controllerRoles];

export const bootstrapClusterRoleBindings: readonly ClusterRoleBinding[] = [
  ...clusterRoleBindings,
  ...controllerRoleBindings,
];

export const bootstrapRoles: readonly Role[] = namespaceRoles;

export const bootstrapRoleBindings: readonly RoleBinding[] = namespaceRoleBindings;
