// kube 1.33's bootstrap ClusterRoleBindings (bootstrappolicy/policy.go ClusterRoleBindings), in its
// order; the ClusterTrustBundle one is left out with its gate off by default.
import type { ClusterRoleBinding } from '../../../api/rbac/v1/rbac.js';
import { clusterRoleBinding, groups, serviceAccounts, users } from './builders.js';

export const clusterRoleBindings: readonly ClusterRoleBinding[] = [
  clusterRoleBinding('cluster-admin', groups('system:masters')),
  clusterRoleBinding('system:monitoring', groups('system:monitoring')),
  clusterRoleBinding('system:discovery', groups('system:authenticated')),
  clusterRoleBinding('system:basic-user', groups('system:authenticated')),
  clusterRoleBinding('system:public-info-viewer', groups('system:authenticated', 'system:unauthenticated')),
  clusterRoleBinding('system:node-proxier', users('system:kube-proxy')),
  clusterRoleBinding('system:kube-controller-manager', users('system:kube-controller-manager')),
  clusterRoleBinding('system:kube-dns', serviceAccounts('kube-system', 'kube-dns')),
  clusterRoleBinding('system:kube-scheduler', users('system:kube-scheduler')),
  clusterRoleBinding('system:volume-scheduler', users('system:kube-scheduler')),
  // Superseded by the Node authorizer: kept without subjects.
  clusterRoleBinding('system:node', []),
  clusterRoleBinding('system:service-account-issuer-discovery', groups('system:serviceaccounts')),
];
