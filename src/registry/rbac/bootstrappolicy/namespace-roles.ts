// kube 1.33's bootstrap Roles and RoleBindings in kube-system and kube-public
// (bootstrappolicy/namespace_policy.go NamespaceRoles and NamespaceRoleBindings).
import type { Role, RoleBinding } from '../../../api/rbac/v1/rbac.js';
import { eventsRule, named, role, roleBinding, rule, serviceAccounts, users } from './builders.js';

const system = 'kube-system';
const lease = 'coordination.k8s.io';
const leaseVerbs = ['get', 'watch', 'list', 'create', 'update'];

/** What a component's leader election takes: its ConfigMap or Lease lock and lease candidates. */
const leaderLocking = (component: string): Role =>
  role(system, `system::leader-locking-${component}`, [
    rule(['watch'], [''], ['configmaps']),
    named(rule(['get', 'update'], [''], ['configmaps']), [component]),
    rule(leaseVerbs, [lease], ['leases']),
    rule(leaseVerbs, [lease], ['leasecandidates']),
  ]);

export const namespaceRoles: readonly Role[] = [
  role(system, 'extension-apiserver-authentication-reader', [
    named(rule(['get', 'list', 'watch'], [''], ['configmaps']), ['extension-apiserver-authentication']),
  ]),
  role(system, 'system:controller:bootstrap-signer', [rule(['get', 'list', 'watch'], [''], ['secrets'])]),
  role(system, 'system:controller:cloud-provider', [
    rule(['create', 'get', 'list', 'watch'], [''], ['configmaps']),
  ]),
  role(system, 'system:controller:token-cleaner', [
    rule(['get', 'list', 'watch', 'delete'], [''], ['secrets']),
    eventsRule(),
  ]),
  leaderLocking('kube-controller-manager'),
  leaderLocking('kube-scheduler'),
  role('kube-public', 'system:controller:bootstrap-signer', [
    rule(['get', 'list', 'watch'], [''], ['configmaps']),
    named(rule(['update'], [''], ['configmaps']), ['cluster-info']),
    eventsRule(),
  ]),
];

export const namespaceRoleBindings: readonly RoleBinding[] = [
  roleBinding(
    {
      namespace: system,
      role: 'extension-apiserver-authentication-reader',
      name: 'system::extension-apiserver-authentication-reader',
    },
    users('system:kube-controller-manager', 'system:kube-scheduler'),
  ),
  roleBinding({ namespace: system, role: 'system::leader-locking-kube-controller-manager' }, [
    ...users('system:kube-controller-manager'),
    ...serviceAccounts(system, 'kube-controller-manager', 'leader-election-controller'),
  ]),
  roleBinding({ namespace: system, role: 'system::leader-locking-kube-scheduler' }, [
    ...users('system:kube-scheduler'),
    ...serviceAccounts(system, 'kube-scheduler'),
  ]),
  roleBinding(
    { namespace: system, role: 'system:controller:bootstrap-signer' },
    serviceAccounts(system, 'bootstrap-signer'),
  ),
  roleBinding(
    { namespace: system, role: 'system:controller:cloud-provider' },
    serviceAccounts(system, 'cloud-provider'),
  ),
  roleBinding(
    { namespace: system, role: 'system:controller:token-cleaner' },
    serviceAccounts(system, 'token-cleaner'),
  ),
  roleBinding(
    { namespace: 'kube-public', role: 'system:controller:bootstrap-signer' },
    serviceAccounts(system, 'bootstrap-signer'),
  ),
];
