// --authorization-mode=RBAC end to end over HTTPS: system:masters may do anything, a user holds what
// his bindings grant and nothing more, with kube's 403 bodies; anonymous requests reach the public
// info paths through the bootstrap system:public-info-viewer binding; access reviews answer by the
// same bindings; a restart on the same data finds the bootstrap policy and does not duplicate it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import {
  adminToken,
  call,
  eventually,
  forbiddenStatus as forbidden,
  type Reply,
} from './support/https-call.js';

const bob = 'bob-token-0123456789';

function ssar(server: CapstanServer, attrs: Record<string, string>): Promise<Reply> {
  return call(server, {
    method: 'POST',
    path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    token: bob,
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: attrs },
    },
  });
}

describe('--authorization-mode=RBAC', () => {
  it('authorizes by the bindings, with kube bootstrap policy and 403 bodies', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'capstan-rbac-'));
    const tokenFile = join(dir, 'tokens.csv');
    await writeFile(tokenFile, `${bob},bob,u-bob\n`);
    const server = await startCapstan({
      authorizationModes: ['RBAC'],
      tokenAuthFile: tokenFile,
      anonymousAuth: true,
    });
    try {
      const admin = adminToken(server);
      // system:masters: anything.
      for (const ns of ['team-a', 'team-b']) {
        const created = await call(server, {
          method: 'POST',
          path: '/api/v1/namespaces',
          token: admin,
          body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
        });
        assert.equal(created.status, 201, created.body);
      }
      assert.equal((await call(server, { path: '/api/v1/nodes', token: admin })).status, 200);
      assert.equal((await call(server, { path: '/metrics', token: admin })).status, 200);

      // bob holds nothing but the discovery and basic-user roles.
      const denied = await call(server, { path: '/api/v1/namespaces/team-a/configmaps', token: bob });
      assert.equal(denied.status, 403);
      assert.deepEqual(
        denied.json,
        forbidden(
          'configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "team-a"',
          { kind: 'configmaps' },
        ),
      );
      const named = await call(server, {
        path: '/apis/apps/v1/namespaces/team-a/deployments/web/scale',
        token: bob,
      });
      assert.deepEqual(
        named.json,
        forbidden(
          'deployments.apps "web" is forbidden: User "bob" cannot get resource "deployments/scale" in API group "apps" in the namespace "team-a"',
          { name: 'web', group: 'apps', kind: 'deployments' },
        ),
      );
      const cluster = await call(server, { path: '/api/v1/nodes', token: bob });
      assert.deepEqual(
        cluster.json,
        forbidden(
          'nodes is forbidden: User "bob" cannot list resource "nodes" in API group "" at the cluster scope',
          { kind: 'nodes' },
        ),
      );
      const path = await call(server, { path: '/metrics', token: bob });
      assert.deepEqual(path.json, forbidden('forbidden: User "bob" cannot get path "/metrics"', {}));
      // system:discovery
      assert.equal((await call(server, { path: '/api', token: bob })).status, 200);
      assert.equal((await call(server, { path: '/apis/apps/v1', token: bob })).status, 200);

      const before = await ssar(server, { namespace: 'team-a', verb: 'list', resource: 'configmaps' });
      assert.equal(before.status, 201, before.body);
      assert.deepEqual(before.json.status, { allowed: false });

      // A Role and a RoleBinding for bob in team-a.
      const role = await call(server, {
        method: 'POST',
        path: '/apis/rbac.authorization.k8s.io/v1/namespaces/team-a/roles',
        token: admin,
        body: {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'Role',
          metadata: { name: 'cm-reader' },
          rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] }],
        },
      });
      assert.equal(role.status, 201, role.body);
      const binding = await call(server, {
        method: 'POST',
        path: '/apis/rbac.authorization.k8s.io/v1/namespaces/team-a/rolebindings',
        token: admin,
        body: {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'RoleBinding',
          metadata: { name: 'bob-reads' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-reader' },
          subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }],
        },
      });
      assert.equal(binding.status, 201, binding.body);
      await eventually(
        async () =>
          (await call(server, { path: '/api/v1/namespaces/team-a/configmaps', token: bob })).status === 200,
        'bob to list configmaps in team-a',
      );
      const other = await call(server, { path: '/api/v1/namespaces/team-b/configmaps', token: bob });
      assert.equal(other.status, 403);
      assert.equal(
        other.json.message,
        'configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "team-b"',
      );
      // get is granted, create is not.
      const create = await call(server, {
        method: 'POST',
        path: '/api/v1/namespaces/team-a/configmaps',
        token: bob,
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } },
      });
      assert.equal(create.status, 403);

      const after = await ssar(server, { namespace: 'team-a', verb: 'list', resource: 'configmaps' });
      assert.deepEqual(after.json.status, {
        allowed: true,
        reason: 'RBAC: allowed by RoleBinding "bob-reads/team-a" of Role "cm-reader" to User "bob"',
      });
      const elsewhere = await ssar(server, { namespace: 'team-b', verb: 'list', resource: 'configmaps' });
      assert.deepEqual(elsewhere.json.status, { allowed: false });
      const rulesIn = async (namespace: string): Promise<unknown[]> => {
        const review = await call(server, {
          method: 'POST',
          path: '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
          token: bob,
          body: {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SelfSubjectRulesReview',
            spec: { namespace },
          },
        });
        assert.equal(review.status, 201, review.body);
        return (review.json.status as { resourceRules: unknown[] }).resourceRules;
      };
      const cmRule = { verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] };
      assert.ok((await rulesIn('team-a')).some((r) => JSON.stringify(r) === JSON.stringify(cmRule)));
      assert.ok(!(await rulesIn('team-b')).some((r) => JSON.stringify(r) === JSON.stringify(cmRule)));

      // Anonymous: the public info paths, nothing else.
      assert.equal((await call(server, { path: '/healthz' })).status, 200);
      assert.equal((await call(server, { path: '/version' })).status, 200);
      assert.equal((await call(server, { path: '/readyz' })).status, 200);
      const anon = await call(server, { path: '/api/v1/namespaces' });
      assert.equal(anon.status, 403);
      assert.deepEqual(
        anon.json,
        forbidden(
          'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
          { kind: 'namespaces' },
        ),
      );

      // The bootstrap policy, labelled as kube's.
      const admin2 = await call(server, {
        path: '/apis/rbac.authorization.k8s.io/v1/clusterroles/system:public-info-viewer',
        token: admin,
      });
      const meta = admin2.json.metadata as { labels?: unknown; annotations?: unknown };
      assert.deepEqual(meta.labels, { 'kubernetes.io/bootstrapping': 'rbac-defaults' });
      assert.deepEqual(meta.annotations, { 'rbac.authorization.kubernetes.io/autoupdate': 'true' });
    } finally {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('AlwaysDeny after RBAC denies what RBAC does not allow, with its reason', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'capstan-rbac-'));
    const tokenFile = join(dir, 'tokens.csv');
    await writeFile(tokenFile, `${bob},bob,u-bob\n`);
    const server = await startCapstan({
      authorizationModes: ['RBAC', 'AlwaysDeny'],
      tokenAuthFile: tokenFile,
    });
    try {
      assert.equal(
        (await call(server, { path: '/api/v1/namespaces', token: adminToken(server) })).status,
        200,
      );
      const denied = await call(server, { path: '/api/v1/namespaces', token: bob });
      assert.equal(
        denied.json.message,
        'namespaces is forbidden: User "bob" cannot list resource "namespaces" in API group "" at the cluster scope: Everything is forbidden.',
      );
    } finally {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('keeps the bootstrap policy across restarts without duplicating it', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'capstan-rbac-restart-'));
    try {
      for (let i = 0; i < 2; i++) {
        const server = await startCapstan({ storage: 'sqlite', dataDir, authorizationModes: ['RBAC'] });
        try {
          const list = await call(server, {
            path: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
            token: adminToken(server),
          });
          assert.equal(list.status, 200, list.body);
          const names = (list.json.items as { metadata: { name: string } }[])
            .map((b) => b.metadata.name)
            .sort();
          // kube 1.33's 12 cluster role bindings and its 35 controllers' ones, once each.
          assert.equal(names.length, 47);
          assert.equal(new Set(names).size, 47);
          for (const name of [
            'cluster-admin',
            'system:basic-user',
            'system:discovery',
            'system:public-info-viewer',
            'system:node',
            'system:controller:clusterrole-aggregation-controller',
          ])
            assert.ok(names.includes(name), name);
        } finally {
          await server.stop();
        }
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
