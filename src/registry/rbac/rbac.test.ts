import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ClusterRole, Role, RoleBinding } from '../../api/rbac/v1/rbac.js';
import type { Store } from '../generic/store.js';
import { rejectsWithStatus } from '../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../generic/testing/memory-rest-options.js';
import { testContext } from '../generic/testing/widgets.js';
import { newClusterRoleBindingREST, newClusterRoleREST, newRoleBindingREST, newRoleREST } from './storage.js';

const apiVersion = 'rbac.authorization.k8s.io/v1';

describe('rbac.authorization.k8s.io stores', () => {
  let env: MemoryRESTOptions;
  let roles: Store<Role>;
  let clusterRoles: Store<ClusterRole>;
  let bindings: Store<RoleBinding>;
  let clusterBindings: Store<RoleBinding>;
  const ctx = testContext('default');
  const cluster = testContext('');
  before(async () => {
    env = await memoryRESTOptions();
    const opts = { restOptionsGetter: env.getter };
    roles = await newRoleREST(opts);
    clusterRoles = await newClusterRoleREST(opts);
    bindings = await newRoleBindingREST(opts);
    clusterBindings = await newClusterRoleBindingREST(opts);
  });
  after(() => env.close());

  it('stores a role under /registry/roles/<ns>/<name> and prints NAME CREATED AT', async () => {
    const role: Role = {
      apiVersion,
      kind: 'Role',
      metadata: { name: 'pod-reader' },
      rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }],
    };
    const out = await roles.create(ctx, role, { options: {} });
    assert.equal(out.metadata?.generation, undefined);
    assert.notEqual((await env.backend.get('/registry/roles/default/pod-reader')).kv, null);
    const table = roles.convertToTable(ctx, out, {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Created At'],
    );
    assert.match(String(table.rows[0]?.cells[1]), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it("refuses rules without verbs, groups or resources with kube's texts", async () => {
    await rejectsWithStatus(
      roles.create(ctx, { apiVersion, kind: 'Role', metadata: { name: 'r' }, rules: [{}] }, { options: {} }),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'Role.rbac.authorization.k8s.io "r" is invalid: [rules[0].verbs: Required value: verbs must contain at least one value, rules[0].apiGroups: Required value: resource rules must supply at least one api group, rules[0].resources: Required value: resource rules must supply at least one resource]',
      },
    );
  });

  it('allows non-resource URLs only in cluster roles, and never mixed with resources', async () => {
    await rejectsWithStatus(
      roles.create(
        ctx,
        {
          apiVersion,
          kind: 'Role',
          metadata: { name: 'n' },
          rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
        },
        { options: {} },
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'Role.rbac.authorization.k8s.io "n" is invalid: rules[0].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs',
      },
    );
    const ok = await clusterRoles.create(
      cluster,
      {
        apiVersion,
        kind: 'ClusterRole',
        metadata: { name: 'health' },
        rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
      },
      { options: {} },
    );
    assert.equal(ok.metadata?.name, 'health');
    await rejectsWithStatus(
      clusterRoles.create(
        cluster,
        {
          apiVersion,
          kind: 'ClusterRole',
          metadata: { name: 'mixed' },
          rules: [{ verbs: ['get'], resources: ['pods'], nonResourceURLs: ['/x'] }],
        },
        { options: {} },
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'ClusterRole.rbac.authorization.k8s.io "mixed" is invalid: rules[0].nonResourceURLs: Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs',
      },
    );
  });

  it('defaults the role group, validates subjects and keeps roleRef fixed', async () => {
    const binding: RoleBinding = {
      apiVersion,
      kind: 'RoleBinding',
      metadata: { name: 'read-pods' },
      roleRef: { apiGroup: '', kind: 'Role', name: 'pod-reader' },
      subjects: [
        { kind: 'User', name: 'jane' },
        { kind: 'ServiceAccount', name: 'default', namespace: 'default' },
      ],
    };
    const out = await bindings.create(ctx, binding, { options: {} });
    assert.equal(out.roleRef.apiGroup, 'rbac.authorization.k8s.io');
    assert.equal(out.subjects?.[0]?.apiGroup, 'rbac.authorization.k8s.io');
    const table = bindings.convertToTable(ctx, out, {});
    const row = table.rows[0];
    assert.ok(row);
    assert.deepEqual(row.cells.slice(0, 2), ['read-pods', 'Role/pod-reader']);
    assert.deepEqual(row.cells.slice(3), ['jane', '', 'default:default']);
    await rejectsWithStatus(
      bindings.update(ctx, 'read-pods', {
        objInfo: {
          preconditions: () => undefined,
          updatedObject: (_ctx, old) =>
            Promise.resolve({
              ...(old as RoleBinding),
              roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
            }),
        },
        options: {},
      }),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'RoleBinding.rbac.authorization.k8s.io "read-pods" is invalid: roleRef: Invalid value: {"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"view"}: cannot change roleRef',
      },
    );
  });

  it("defaults a decoded binding as kube's decoder does (SetDefaults_RoleBinding, _ClusterRoleBinding, _Subject)", () => {
    for (const store of [bindings, clusterBindings]) {
      const body: RoleBinding = {
        apiVersion,
        kind: 'RoleBinding',
        metadata: { name: 'decoded' },
        roleRef: { apiGroup: '', kind: 'ClusterRole', name: 'view' },
        subjects: [
          { kind: 'Group', name: 'devs' },
          { kind: 'ServiceAccount', name: 'robot', namespace: 'default' },
        ],
      };
      store.defaultDecoded(body);
      assert.equal(body.roleRef.apiGroup, 'rbac.authorization.k8s.io');
      assert.deepEqual(body.subjects, [
        { kind: 'Group', name: 'devs', apiGroup: 'rbac.authorization.k8s.io' },
        { kind: 'ServiceAccount', name: 'robot', namespace: 'default' },
      ]);
    }
  });

  it('binds only ClusterRoles cluster-wide and requires service account namespaces there', async () => {
    await rejectsWithStatus(
      clusterBindings.create(
        cluster,
        {
          apiVersion,
          kind: 'ClusterRoleBinding',
          metadata: { name: 'b' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'x' },
          subjects: [
            { kind: 'ServiceAccount', name: 'default' },
            { kind: 'Robot', name: 'r2' },
          ],
        },
        { options: {} },
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'ClusterRoleBinding.rbac.authorization.k8s.io "b" is invalid: [roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole", subjects[0].namespace: Required value, subjects[1].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"]',
      },
    );
  });
});
