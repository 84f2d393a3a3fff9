// RBAC's escalation prevention end to end (--authorization-mode=RBAC over HTTPS): bob, who may write
// roles and rolebindings in `team`, may grant what he holds there and nothing more, with kube's 403
// bodies; he may bind cluster-admin only once granted `bind` on it; the admin (system:masters) may
// do anything; and after a restart on the same data the bootstrap policy and the checks still hold.
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
const rbac = '/apis/rbac.authorization.k8s.io/v1';
const apiVersion = 'rbac.authorization.k8s.io/v1';
const notHeld =
  'user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n';

const role = (name: string, rules: unknown[]): Record<string, unknown> => ({
  apiVersion,
  kind: 'Role',
  metadata: { name },
  rules,
});
const binding = (
  name: string,
  ref: { kind: string; name: string },
  user: string,
): Record<string, unknown> => ({
  apiVersion,
  kind: 'RoleBinding',
  metadata: { name },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...ref },
  subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: user }],
});

describe('RBAC escalation prevention', () => {
  it('lets bob grant only what he holds, and bind cluster-admin only with `bind`', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'capstan-rbac-esc-'));
    const tokenFile = join(dir, 'tokens.csv');
    await writeFile(tokenFile, `${bob},bob,u-bob\n`);
    const start = (): Promise<CapstanServer> =>
      startCapstan({
        storage: 'sqlite',
        dataDir: dir,
        authorizationModes: ['RBAC'],
        tokenAuthFile: tokenFile,
      });
    let server = await start();
    try {
      let admin = adminToken(server);
      const post = (path: string, body: unknown, token: string): Promise<Reply> =>
        call(server, { method: 'POST', path, token, body });
      assert.equal(
        (
          await post(
            '/api/v1/namespaces',
            { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } },
            admin,
          )
        ).status,
        201,
      );
      const manager = await post(
        `${rbac}/namespaces/team/roles`,
        role('manager', [
          {
            verbs: ['create', 'get', 'update', 'patch'],
            apiGroups: ['rbac.authorization.k8s.io'],
            resources: ['roles', 'rolebindings'],
          },
          { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] },
        ]),
        admin,
      );
      assert.equal(manager.status, 201, manager.body);
      const bound = await post(
        `${rbac}/namespaces/team/rolebindings`,
        binding('bob-manager', { kind: 'Role', name: 'manager' }, 'bob'),
        admin,
      );
      assert.equal(bound.status, 201, bound.body);

      // A Role granting what bob holds: created (once the authorizer has seen his binding).
      let getter: Reply | undefined;
      await eventually(async () => {
        getter = await post(
          `${rbac}/namespaces/team/roles`,
          role('pod-getter', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]),
          bob,
        );
        return getter.status !== 403 || !getter.body.includes('cannot create resource');
      }, 'bob to be allowed to create roles');
      assert.equal(getter?.status, 201, getter?.body);

      // More than he holds: kube's 403.
      const deleter = await post(
        `${rbac}/namespaces/team/roles`,
        role('pod-deleter', [{ verbs: ['get', 'delete'], apiGroups: [''], resources: ['pods'] }]),
        bob,
      );
      assert.deepEqual(
        deleter.json,
        forbidden(
          `roles.rbac.authorization.k8s.io "pod-deleter" is forbidden: ${notHeld}{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}`,
          { name: 'pod-deleter', group: 'rbac.authorization.k8s.io', kind: 'roles' },
        ),
      );
      // Nor by a patch of a role he may update.
      const patched = await call(server, {
        method: 'PATCH',
        path: `${rbac}/namespaces/team/roles/pod-getter`,
        token: bob,
        contentType: 'application/merge-patch+json',
        body: { rules: [{ verbs: ['get', 'watch'], apiGroups: [''], resources: ['pods'] }] },
      });
      assert.equal(patched.status, 403, patched.body);
      assert.equal(
        patched.json.message,
        `roles.rbac.authorization.k8s.io "pod-getter" is forbidden: ${notHeld}{APIGroups:[""], Resources:["pods"], Verbs:["watch"]}`,
      );

      // Binding a role he holds: allowed; binding cluster-admin: refused.
      const ok = await post(
        `${rbac}/namespaces/team/rolebindings`,
        binding('alice-getter', { kind: 'Role', name: 'pod-getter' }, 'alice'),
        bob,
      );
      assert.equal(ok.status, 201, ok.body);
      const toAdmin = binding('bob-admin', { kind: 'ClusterRole', name: 'cluster-admin' }, 'bob');
      const refused = await post(`${rbac}/namespaces/team/rolebindings`, toAdmin, bob);
      assert.deepEqual(
        refused.json,
        forbidden(
          `rolebindings.rbac.authorization.k8s.io "bob-admin" is forbidden: ${notHeld}{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}`,
          { name: 'bob-admin', group: 'rbac.authorization.k8s.io', kind: 'rolebindings' },
        ),
      );
      const missing = await post(
        `${rbac}/namespaces/team/rolebindings`,
        binding('ghost', { kind: 'Role', name: 'nope' }, 'bob'),
        bob,
      );
      assert.equal(missing.status, 404, missing.body);
      assert.equal(missing.json.message, 'roles.rbac.authorization.k8s.io "nope" not found');

      // Granted `bind` on cluster-admin in team, he may.
      assert.equal(
        (
          await post(
            `${rbac}/namespaces/team/roles`,
            role('binder', [
              {
                verbs: ['bind'],
                apiGroups: ['rbac.authorization.k8s.io'],
                resources: ['clusterroles'],
                resourceNames: ['cluster-admin'],
              },
            ]),
            admin,
          )
        ).status,
        201,
      );
      assert.equal(
        (
          await post(
            `${rbac}/namespaces/team/rolebindings`,
            binding('bob-binder', { kind: 'Role', name: 'binder' }, 'bob'),
            admin,
          )
        ).status,
        201,
      );
      let allowed: Reply | undefined;
      await eventually(async () => {
        allowed = await post(`${rbac}/namespaces/team/rolebindings`, toAdmin, bob);
        return allowed.status !== 403;
      }, 'bob to be allowed to bind cluster-admin');
      assert.equal(allowed?.status, 201, allowed?.body);

      // The admin (system:masters) may write anything, aggregation rules included.
      const aggregated = await post(
        `${rbac}/clusterroles`,
        {
          apiVersion,
          kind: 'ClusterRole',
          metadata: { name: 'everything' },
          aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] },
          rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
        },
        admin,
      );
      assert.equal(aggregated.status, 201, aggregated.body);

      // A restart on the same data: bootstrap policy in place, the checks as before.
      await server.stop();
      server = await start();
      admin = adminToken(server);
      const bindings = await call(server, { path: `${rbac}/clusterrolebindings`, token: admin });
      assert.equal(bindings.status, 200, bindings.body);
      assert.ok(
        (bindings.json.items as { metadata: { name: string } }[]).some(
          (b) => b.metadata.name === 'cluster-admin',
        ),
      );
      // bob is cluster-admin of team now, so he holds delete pods there...
      const deleterRole = (name: string): Record<string, unknown> =>
        role(name, [{ verbs: ['get', 'delete'], apiGroups: [''], resources: ['pods'] }]);
      await eventually(
        async () =>
          (await post(`${rbac}/namespaces/team/roles`, deleterRole('pod-deleter'), bob)).status === 201,
        'bob to create pod-deleter as cluster-admin of team',
      );
      // ...until that binding goes.
      const removed = await call(server, {
        method: 'DELETE',
        path: `${rbac}/namespaces/team/rolebindings/bob-admin`,
        token: admin,
      });
      assert.equal(removed.status, 200, removed.body);
      let again: Reply | undefined;
      await eventually(async () => {
        again = await post(`${rbac}/namespaces/team/roles`, deleterRole('pod-deleter-2'), bob);
        return again.status === 403;
      }, 'bob to lose delete pods');
      assert.equal(
        again?.json.message,
        `roles.rbac.authorization.k8s.io "pod-deleter-2" is forbidden: ${notHeld}{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}`,
      );

      // A binding of bob to a missing role: the rules review and the refusal both say so.
      const dangling = await post(
        `${rbac}/namespaces/team/rolebindings`,
        binding('dangling', { kind: 'Role', name: 'ghost' }, 'bob'),
        admin,
      );
      assert.equal(dangling.status, 201, dangling.body);
      const review = (): Promise<Reply> =>
        post(
          '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
          {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SelfSubjectRulesReview',
            spec: { namespace: 'team' },
          },
          bob,
        );
      await eventually(
        async () =>
          ((await review()).json.status as { evaluationError?: string } | undefined)?.evaluationError ===
          'role.rbac.authorization.k8s.io "ghost" not found',
        'the rules review to report the missing role',
      );
      const withErrors = await post(`${rbac}/namespaces/team/roles`, deleterRole('pod-deleter-3'), bob);
      assert.equal(
        withErrors.json.message,
        `roles.rbac.authorization.k8s.io "pod-deleter-3" is forbidden: ${notHeld}{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}; resolution errors: [roles.rbac.authorization.k8s.io "ghost" not found]`,
      );
    } finally {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
