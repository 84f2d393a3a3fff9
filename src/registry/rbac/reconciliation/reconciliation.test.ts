import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClusterRole, RoleBinding } from '../../../api/rbac/v1/rbac.js';
import { reconcileBinding } from './reconcile-binding.js';
import { reconcileRole } from './reconcile-role.js';

const apiVersion = 'rbac.authorization.k8s.io/v1';
const defaults = {
  labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
  annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
};
const expectedRole: ClusterRole = {
  apiVersion,
  kind: 'ClusterRole',
  metadata: { name: 'r', ...defaults },
  rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }],
};
const stored = (extra: Partial<ClusterRole>): ClusterRole => ({
  apiVersion,
  kind: 'ClusterRole',
  metadata: { name: 'r', resourceVersion: '7', ...defaults },
  ...extra,
});

describe('reconcileRole (reconcile_role.go, union mode)', () => {
  it('creates a missing role and leaves a covering one alone', () => {
    assert.equal(reconcileRole(undefined, expectedRole).operation, 'create');
    const wider = stored({ rules: [{ verbs: ['*'], apiGroups: [''], resources: ['pods', 'secrets'] }] });
    assert.equal(reconcileRole(wider, expectedRole).operation, 'none');
  });

  it('appends the uncovered rules broken down, and adds missing labels, stored values winning', () => {
    const narrower = stored({
      metadata: {
        name: 'r',
        resourceVersion: '7',
        labels: { 'kubernetes.io/bootstrapping': 'mine', x: 'y' },
      },
      rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
    });
    const r = reconcileRole(narrower, expectedRole);
    assert.equal(r.operation, 'update');
    assert.equal(r.protected, false);
    assert.deepEqual(r.role.rules, [
      { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
      { verbs: ['list'], apiGroups: [''], resources: ['pods'] },
    ]);
    assert.deepEqual(r.role.metadata?.labels, { 'kubernetes.io/bootstrapping': 'mine', x: 'y' });
    assert.deepEqual(r.role.metadata.annotations, defaults.annotations);
    assert.equal(r.role.metadata.resourceVersion, '7');
  });

  it('reports a role annotated autoupdate "false" as protected', () => {
    const mine = stored({
      metadata: { name: 'r', annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } },
    });
    const r = reconcileRole(mine, expectedRole);
    assert.equal(r.operation, 'update');
    assert.equal(r.protected, true);
  });

  it('adds missing aggregation selectors and drops an unexpected aggregationRule', () => {
    const selector = { matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } };
    const view: ClusterRole = {
      ...expectedRole,
      rules: [],
      aggregationRule: { clusterRoleSelectors: [selector] },
    };
    const other = { matchLabels: { team: 'a' } };
    const r = reconcileRole(stored({ aggregationRule: { clusterRoleSelectors: [other] } }), view);
    assert.deepEqual(r.role.aggregationRule, { clusterRoleSelectors: [other, selector] });
    assert.equal(
      reconcileRole(stored({ aggregationRule: { clusterRoleSelectors: [selector] } }), view).operation,
      'none',
    );
    const plain = reconcileRole(
      stored({ rules: expectedRole.rules ?? [], aggregationRule: {} }),
      expectedRole,
    );
    assert.equal(plain.operation, 'update');
    assert.equal(plain.role.aggregationRule, undefined);
  });
});

describe('reconcileBinding (reconcile_rolebindings.go, union mode)', () => {
  const expected: RoleBinding = {
    apiVersion,
    kind: 'ClusterRoleBinding',
    metadata: { name: 'b', ...defaults },
    subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:authenticated' }],
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'b' },
  };

  it('adds missing subjects once, keeping the stored ones first', () => {
    const mine = { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' };
    const r = reconcileBinding({ ...expected, subjects: [mine] }, expected);
    assert.equal(r.operation, 'update');
    assert.deepEqual(r.binding.subjects, [mine, ...(expected.subjects ?? [])]);
    assert.equal(reconcileBinding(expected, expected).operation, 'none');
  });

  it('recreates a binding whose roleRef differs', () => {
    const r = reconcileBinding({ ...expected, roleRef: { ...expected.roleRef, name: 'other' } }, expected);
    assert.equal(r.operation, 'recreate');
    assert.equal(r.binding, expected);
  });
});
