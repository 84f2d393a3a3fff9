// The real kubectl against one Capstan process: RBAC objects through `kubectl create
// role|clusterrole|rolebinding|clusterrolebinding`, the review APIs behind `kubectl auth can-i`
// and `kubectl auth whoami` (authorization is allow-all, as kube's AlwaysAllow mode), and a
// TokenReview of a `kubectl create token` token through `kubectl create -f - -o yaml`.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { locateKubectl } from './support/kubectl.js';
import { kubectlSession } from './support/kubectl-session.js';
import { tableRows } from './support/kube-objects.js';
import { eventually } from './support/client-node-helpers.js';

describe('kubectl against capstan: rbac and auth', () => {
  let capstan: CapstanProcess;
  const { kubectl, ok } = kubectlSession(() => capstan.kubeconfigPath);

  before(async () => {
    await locateKubectl();
    capstan = await startCapstanProcess();
  });
  after(async () => {
    await capstan.stop();
  });

  it('creates roles and bindings as kubectl builds them, and prints their tables', async () => {
    assert.equal(
      await ok(['create', 'role', 'pod-reader', '--verb=get,list,watch', '--resource=pods', '-n', 'default']),
      'role.rbac.authorization.k8s.io/pod-reader created\n',
    );
    // kubectl puts the resources and the non-resource URLs in two rules.
    assert.equal(
      await ok([
        'create',
        'clusterrole',
        'node-reader',
        '--verb=get',
        '--resource=nodes',
        '--non-resource-url=/healthz',
      ]),
      'clusterrole.rbac.authorization.k8s.io/node-reader created\n',
    );
    await ok([
      'create',
      'rolebinding',
      'rb',
      '--role=pod-reader',
      '--user=jane',
      '--serviceaccount=default:builder',
    ]);
    await ok(['create', 'clusterrolebinding', 'crb', '--clusterrole=node-reader', '--group=devs']);

    const roles = tableRows(await ok(['get', 'role', '-n', 'default']));
    assert.deepEqual(roles[0], ['NAME', 'CREATED', 'AT']);
    const [name, createdAt] = roles[1] ?? [];
    assert.equal(name, 'pod-reader');
    assert.match(createdAt ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const bindings = tableRows(await ok(['get', 'rolebinding', 'rb', '-n', 'default', '-o', 'wide']));
    assert.deepEqual(bindings[0], ['NAME', 'ROLE', 'AGE', 'USERS', 'GROUPS', 'SERVICEACCOUNTS']);
    assert.deepEqual(
      [bindings[1]?.[0], bindings[1]?.[1], bindings[1]?.[3], bindings[1]?.[4]],
      ['rb', 'Role/pod-reader', 'jane', 'default:builder'],
    );
    const rules = JSON.parse(await ok(['get', 'clusterrole', 'node-reader', '-o', 'json'])) as {
      rules: { resources?: string[]; nonResourceURLs?: string[] }[];
    };
    assert.deepEqual(
      rules.rules.map((r) => r.resources ?? r.nonResourceURLs),
      [['nodes'], ['/healthz']],
    );
  });

  it("refuses a binding whose role reference changes, with kube's message", async () => {
    const r = await kubectl([
      'create',
      'rolebinding',
      'rb',
      '--clusterrole=view',
      '--user=jane',
      '-n',
      'default',
    ]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /rolebindings.rbac.authorization.k8s.io "rb" already exists/);
    const patch = await kubectl([
      'patch',
      'rolebinding',
      'rb',
      '-n',
      'default',
      '--type=merge',
      '-p',
      '{"roleRef":{"name":"other"}}',
    ]);
    assert.equal(patch.code, 1);
    assert.match(patch.stderr, /roleRef: Invalid value: .*cannot change roleRef/);
  });

  it("lists kube's default cluster roles, view aggregated (allow-all: the RBAC group alone bootstraps them)", async () => {
    const rows = tableRows(await ok(['get', 'clusterrole', 'admin', 'edit', 'view', 'cluster-admin']));
    assert.deepEqual(
      rows.slice(1).map((r) => r[0]),
      ['admin', 'edit', 'view', 'cluster-admin'],
    );
    // The clusterrole-aggregation controller fills view's rules from system:aggregate-to-view.
    let rules: { apiGroups?: string[]; resources?: string[] }[] = [];
    await eventually(
      async () => {
        const view = JSON.parse(await ok(['get', 'clusterrole', 'view', '-o', 'json'])) as {
          rules: typeof rules | null;
        };
        rules = view.rules ?? [];
        return rules.some(
          (r) => r.apiGroups?.includes('') === true && r.resources?.includes('pods') === true,
        );
      },
      'view to grant pods',
      { seen: () => rules },
    );
  });

  it('answers kubectl auth can-i (allow-all) for the caller, another user, and --list', async () => {
    assert.equal(await ok(['auth', 'can-i', 'create', 'pods']), 'yes\n');
    assert.equal(await ok(['auth', 'can-i', 'delete', 'nodes', '--as=jane']), 'yes\n');
    assert.equal(await ok(['auth', 'can-i', 'get', '/healthz']), 'yes\n');
    const list = tableRows(await ok(['auth', 'can-i', '--list', '-n', 'default']));
    assert.deepEqual(list[0], ['Resources', 'Non-Resource', 'URLs', 'Resource', 'Names', 'Verbs']);
    assert.deepEqual(list[1], ['*.*', '[]', '[]', '[*]']);
  });

  it('answers kubectl auth whoami with the authenticated user', async () => {
    const rows = tableRows(await ok(['auth', 'whoami']));
    assert.deepEqual(rows[0], ['ATTRIBUTE', 'VALUE']);
    const username = rows.find((r) => r[0] === 'Username');
    assert.ok(username?.[1] !== undefined && username[1] !== '');
    const groups =
      rows
        .find((r) => r[0] === 'Groups')
        ?.slice(1)
        .join(' ') ?? '';
    assert.match(groups, /system:authenticated/);
  });

  it('reviews a token kubectl created with kubectl create -f tokenreview.yaml -o yaml', async () => {
    await ok(['create', 'serviceaccount', 'reviewer', '-n', 'default']);
    const token = (await ok(['create', 'token', 'reviewer', '-n', 'default', '--audience=vault'])).trim();
    const manifest = (audiences: string): string =>
      [
        'apiVersion: authentication.k8s.io/v1',
        'kind: TokenReview',
        'spec:',
        `  token: ${token}`,
        `  audiences: [${audiences}]`,
        '',
      ].join('\n');
    const out = await ok(['create', '-f', '-', '-o', 'yaml'], manifest('vault'));
    assert.match(out, /^kind: TokenReview$/m);
    assert.match(out, /^ {2}authenticated: true$/m);
    assert.match(out, /^ {4}username: system:serviceaccount:default:reviewer$/m);
    assert.match(out, /^ {2}audiences:\n {2}- vault$/m);
    // Another audience than the token's: unauthenticated, with the service account authenticator's error.
    const refused = await ok(['create', '-f', '-', '-o', 'jsonpath={.status.error}'], manifest('other'));
    assert.equal(refused, 'token audiences ["vault"] is invalid for the target audiences ["other"]');
  });
});
