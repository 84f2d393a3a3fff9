import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta.js';
import type { PolicyRule } from '../../../api/rbac/v1/rbac.js';
import {
  bootstrapClusterRoleBindings,
  bootstrapClusterRoles,
  bootstrapRoleBindings,
  bootstrapRoles,
} from '../bootstrap-policy.js';

const names = (objs: readonly KubeObject[]): string[] =>
  objs.map((o) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`.replace(/^\//, ''));

const ruleOf = (roleName: string, resource: string): PolicyRule | undefined =>
  bootstrapClusterRoles
    .find((r) => r.metadata?.name === roleName)
    ?.rules?.find((r) => r.resources?.includes(resource) === true);

describe("kube 1.33's bootstrap policy", () => {
  it('has the cluster roles of ClusterRoles() and ControllerRoles(), in order and once each', () => {
    const all = names(bootstrapClusterRoles);
    assert.equal(new Set(all).size, all.length);
    assert.deepEqual(all.slice(0, 12), [
      'cluster-admin',
      'system:discovery',
      'system:monitoring',
      'system:basic-user',
      'system:public-info-viewer',
      'admin',
      'edit',
      'view',
      'system:aggregate-to-admin',
      'system:aggregate-to-edit',
      'system:aggregate-to-view',
      'system:heapster',
    ]);
    for (const name of [
      'system:node',
      'system:kube-scheduler',
      'system:kube-controller-manager',
      'system:volume-scheduler',
      'system:node-proxier',
      'system:service-account-issuer-discovery',
      'system:kubelet-api-admin',
      'system:certificates.k8s.io:kube-apiserver-client-kubelet-approver',
      'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient',
    ])
      assert.ok(all.includes(name), name);
    const controllers = all.filter((n) => n.startsWith('system:controller:'));
    assert.equal(controllers.length, 35);
    assert.equal(controllers[0], 'system:controller:attachdetach-controller');
    assert.equal(controllers.at(-1), 'system:controller:selinux-warning-controller');
    // Off by default in 1.33: DynamicResourceAllocation, ClusterTrustBundle, VolumeAttributesClass.
    for (const gated of [
      'system:controller:resource-claim-controller',
      'system:cluster-trust-bundle-discovery',
      'system:controller:volumeattributesclass-protection-controller',
    ])
      assert.ok(!all.includes(gated), gated);
    assert.equal(all.length, 66);
  });

  it('binds each controller role to its kube-system service account, and system:node to nobody', () => {
    const byName = new Map(bootstrapClusterRoleBindings.map((b) => [b.metadata?.name, b]));
    assert.equal(byName.size, bootstrapClusterRoleBindings.length);
    assert.equal(byName.size, 47);
    assert.deepEqual(byName.get('system:controller:job-controller')?.subjects, [
      { kind: 'ServiceAccount', name: 'job-controller', namespace: 'kube-system' },
    ]);
    assert.deepEqual(byName.get('system:kube-scheduler')?.subjects, [
      { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'system:kube-scheduler' },
    ]);
    assert.equal(byName.get('system:node')?.subjects, undefined);
    assert.deepEqual(byName.get('system:node')?.roleRef, {
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: 'system:node',
    });
  });

  it('has the Roles and RoleBindings of kube-system and kube-public', () => {
    assert.deepEqual(names(bootstrapRoles), [
      'kube-system/extension-apiserver-authentication-reader',
      'kube-system/system:controller:bootstrap-signer',
      'kube-system/system:controller:cloud-provider',
      'kube-system/system:controller:token-cleaner',
      'kube-system/system::leader-locking-kube-controller-manager',
      'kube-system/system::leader-locking-kube-scheduler',
      'kube-public/system:controller:bootstrap-signer',
    ]);
    const reader = bootstrapRoleBindings[0];
    assert.equal(reader?.metadata?.name, 'system::extension-apiserver-authentication-reader');
    assert.deepEqual(reader.roleRef, {
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'Role',
      name: 'extension-apiserver-authentication-reader',
    });
    assert.equal(bootstrapRoleBindings.length, 7);
  });

  it('labels and annotates everything as kube does, with sorted rule lists', () => {
    for (const obj of [
      ...bootstrapClusterRoles,
      ...bootstrapClusterRoleBindings,
      ...bootstrapRoles,
      ...bootstrapRoleBindings,
    ]) {
      assert.equal(obj.metadata?.labels?.['kubernetes.io/bootstrapping'], 'rbac-defaults');
      assert.deepEqual(obj.metadata.annotations, { 'rbac.authorization.kubernetes.io/autoupdate': 'true' });
    }
    for (const role of [...bootstrapClusterRoles, ...bootstrapRoles])
      for (const rule of role.rules ?? [])
        for (const list of [
          rule.verbs,
          rule.apiGroups,
          rule.resources,
          rule.resourceNames,
          rule.nonResourceURLs,
        ])
          if (list !== undefined) assert.deepEqual(list, [...list].sort(), role.metadata?.name);
    // Feature gates at their 1.33 defaults.
    assert.deepEqual(ruleOf('system:controller:statefulset-controller', 'pods/finalizers')?.verbs, [
      'update',
    ]);
    assert.deepEqual(ruleOf('system:kubelet-api-admin', 'nodes/configz')?.verbs, ['*']);
    assert.equal(ruleOf('system:aggregate-to-view', 'resourceclaims'), undefined);
    assert.deepEqual(ruleOf('system:kube-scheduler', 'leases'), {
      verbs: ['create'],
      apiGroups: ['coordination.k8s.io'],
      resources: ['leases'],
    });
  });
});
