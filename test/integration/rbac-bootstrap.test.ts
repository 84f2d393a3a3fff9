// kube's default RBAC policy on a server that does not authorize by RBAC (the default AlwaysAllow):
// the `rbac/bootstrap-roles` post-start hook runs because the RBAC group is served, and the
// clusterrole-aggregation controller fills admin, edit and view and follows labelled ClusterRoles.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { adminToken, call, eventually } from './support/https-call.js';

const rbac = '/apis/rbac.authorization.k8s.io/v1';
interface Rule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
}

describe('RBAC bootstrap policy without --authorization-mode=RBAC', () => {
  let server: CapstanServer;
  const get = async (path: string): Promise<Record<string, unknown>> => {
    const r = await call(server, { path, token: adminToken(server) });
    assert.equal(r.status, 200, r.body);
    return r.json;
  };
  const rulesOf = async (name: string): Promise<Rule[]> =>
    ((await get(`${rbac}/clusterroles/${name}`)).rules as Rule[] | null) ?? [];
  const grants = (rules: readonly Rule[], group: string, resource: string): boolean =>
    rules.some((r) => r.apiGroups?.includes(group) === true && r.resources?.includes(resource) === true);

  before(async () => {
    server = await startCapstan();
  });
  after(async () => {
    await server.stop();
  });

  it("creates kube's roles and bindings, and /livez lists the hook", async () => {
    for (const name of ['admin', 'edit', 'view', 'cluster-admin', 'system:node', 'system:kube-scheduler'])
      await get(`${rbac}/clusterroles/${name}`);
    await get(`${rbac}/clusterrolebindings/system:controller:namespace-controller`);
    await get(`${rbac}/namespaces/kube-system/roles/extension-apiserver-authentication-reader`);
    await get(`${rbac}/namespaces/kube-public/rolebindings/system:controller:bootstrap-signer`);
    const livez = await call(server, { path: '/livez?verbose', token: adminToken(server) });
    assert.match(livez.body, /^\[\+\]poststarthook\/rbac\/bootstrap-roles ok$/m);
  });

  it('aggregates view, edit and admin, and follows a labelled ClusterRole in and out', async () => {
    await eventually(async () => grants(await rulesOf('view'), '', 'pods'), 'view to hold its rules');
    await eventually(
      async () => grants(await rulesOf('admin'), 'rbac.authorization.k8s.io', 'rolebindings'),
      'admin',
    );
    const edit = await rulesOf('edit');
    assert.ok(grants(edit, '', 'pods') && grants(edit, '', 'secrets'), JSON.stringify(edit));

    const created = await call(server, {
      method: 'POST',
      path: `${rbac}/clusterroles`,
      token: adminToken(server),
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: {
          name: 'widget-viewer',
          labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' },
        },
        rules: [{ verbs: ['get', 'list'], apiGroups: ['example.com'], resources: ['widgets'] }],
      },
    });
    assert.equal(created.status, 201, created.body);
    await eventually(
      async () => grants(await rulesOf('view'), 'example.com', 'widgets'),
      'view to take widgets',
    );
    // Through view, edit and admin take it too.
    await eventually(
      async () => grants(await rulesOf('admin'), 'example.com', 'widgets'),
      'admin to take widgets',
    );

    const unlabelled = await call(server, {
      method: 'PATCH',
      path: `${rbac}/clusterroles/widget-viewer`,
      token: adminToken(server),
      contentType: 'application/merge-patch+json',
      body: { metadata: { labels: { 'rbac.authorization.k8s.io/aggregate-to-view': null } } },
    });
    assert.equal(unlabelled.status, 200, unlabelled.body);
    await eventually(
      async () => !grants(await rulesOf('view'), 'example.com', 'widgets'),
      'view to drop widgets',
    );
    await eventually(
      async () => !grants(await rulesOf('admin'), 'example.com', 'widgets'),
      'admin to drop widgets',
    );
  });
});
