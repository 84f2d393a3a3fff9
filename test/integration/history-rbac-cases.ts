// The history read under RBAC, shared by the SQLite and etcd files: it is authorized as a get of the
// object it names, so a user with `get pods` in one namespace reads a pod's history there and
// nowhere else, and system:masters reads everything.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { startCapstan, type CapstanServer, type StartCapstanOptions } from '../../src/index.js';

interface HistoryRbacFixture {
  readonly url: string;
  readonly adminToken: string;
  /** A token for user `developer` (no groups beyond system:authenticated). */
  readonly userToken: string;
}

type Reply = { code: number; body: Record<string, unknown> };

async function call(
  fx: HistoryRbacFixture,
  req: { method?: string; path: string; body?: unknown; token?: string },
): Promise<Reply> {
  const res = await fetch(`${fx.url}${req.path}`, {
    method: req.method ?? 'GET',
    headers: { authorization: `Bearer ${req.token ?? fx.adminToken}`, 'content-type': 'application/json' },
    ...(req.body === undefined ? {} : { body: JSON.stringify(req.body) }),
  });
  return { code: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function create(fx: HistoryRbacFixture, path: string, body: unknown): Promise<void> {
  const r = await call(fx, { method: 'POST', path, body });
  assert.equal(r.code, 201, JSON.stringify(r.body));
}

const pod = (name: string): unknown => ({
  metadata: { name },
  spec: { automountServiceAccountToken: false, containers: [{ name: 'c', image: 'nginx' }] },
});

/** Namespaces team-a and team-b with a pod each, a secret in team-a, and `get pods` in team-a for developer. */
async function seed(fx: HistoryRbacFixture): Promise<void> {
  for (const ns of ['team-a', 'team-b']) {
    await create(fx, '/api/v1/namespaces', { metadata: { name: ns } });
    await create(fx, `/api/v1/namespaces/${ns}/pods`, pod('web'));
  }
  await create(fx, '/api/v1/namespaces/team-a/secrets', {
    metadata: { name: 'creds' },
    stringData: { k: 'v' },
  });
  const rbac = '/apis/rbac.authorization.k8s.io/v1/namespaces/team-a';
  await create(fx, `${rbac}/roles`, {
    metadata: { name: 'pod-reader' },
    rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
  });
  await create(fx, `${rbac}/rolebindings`, {
    metadata: { name: 'developer-reads-pods' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'developer' }],
  });
}

const history = (path: string): string => `/capstan/v1/history${path}`;

/** Registers the cases; `fixture` is read inside each test (after the file's `before`). */
/**
 * One server on the store `storage` describes (RBAC, a token file with user `developer`) for the
 * cases below, started before them and stopped after.
 */
export function historyRbacSuite(storage: (dir: string) => StartCapstanOptions): void {
  const userToken = 'developer-token';
  let server: CapstanServer | undefined;
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-history-rbac-'));
    const tokenAuthFile = join(dir, 'tokens.csv');
    await writeFile(tokenAuthFile, `${userToken},developer,1001\n`);
    server = await startCapstan({
      ...storage(dir),
      scheme: 'http',
      authorizationModes: ['RBAC'],
      tokenAuthFile,
    });
  });
  after(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });
  historyRbacCases(() => {
    if (server === undefined) throw new Error('the server did not start');
    return { url: server.url, adminToken: server.kubeConfig.users[0]?.user.token ?? '', userToken };
  });
}

function historyRbacCases(fixture: () => HistoryRbacFixture): void {
  it('lets a user with get on pods in a namespace read a pod history there', async () => {
    const fx = fixture();
    await seed(fx);
    const r = await call(fx, { path: history('/api/v1/namespaces/team-a/pods/web'), token: fx.userToken });
    assert.equal(r.code, 200, JSON.stringify(r.body));
    assert.equal(r.body['kind'], 'ObjectHistory');
    assert.deepEqual(
      (r.body['items'] as { type: string }[]).map((i) => i.type),
      ['ADDED'],
    );
  });

  it('answers 403 with kube Forbidden Status in another namespace and for secrets', async () => {
    const fx = fixture();
    const other = await call(fx, {
      path: history('/api/v1/namespaces/team-b/pods/web'),
      token: fx.userToken,
    });
    assert.equal(other.code, 403);
    assert.deepEqual(
      { ...other.body, metadata: undefined },
      {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: undefined,
        status: 'Failure',
        message:
          'pods "web" is forbidden: User "developer" cannot get resource "pods" in API group "" in the namespace "team-b"',
        reason: 'Forbidden',
        details: { name: 'web', kind: 'pods' },
        code: 403,
      },
    );
    const secret = await call(fx, {
      path: history('/api/v1/namespaces/team-a/secrets/creds'),
      token: fx.userToken,
    });
    assert.equal(secret.code, 403);
    assert.equal(
      secret.body['message'],
      'secrets "creds" is forbidden: User "developer" cannot get resource "secrets" in API group "" in the namespace "team-a"',
    );
    // The plain get agrees with the history read.
    const get = await call(fx, { path: '/api/v1/namespaces/team-a/secrets/creds', token: fx.userToken });
    assert.equal(get.code, 403);
    const nodes = await call(fx, { path: history('/api/v1/nodes/any'), token: fx.userToken });
    assert.equal(nodes.code, 403);
  });

  it('lets system:masters read everything, and answers 404 for what does not exist', async () => {
    const fx = fixture();
    for (const path of [
      '/api/v1/namespaces/team-a/pods/web',
      '/api/v1/namespaces/team-b/pods/web',
      '/api/v1/namespaces/team-a/secrets/creds',
      '/apis/rbac.authorization.k8s.io/v1/namespaces/team-a/roles/pod-reader',
      '/api/v1/namespaces/team-a',
    ]) {
      const r = await call(fx, { path: history(path) });
      assert.equal(r.code, 200, `${path}: ${JSON.stringify(r.body)}`);
    }
    const unknown = await call(fx, { path: history('/api/v1/namespaces/team-a/nothings/x') });
    assert.equal(unknown.code, 404);
    assert.equal(unknown.body['reason'], 'NotFound');
    const missing = await call(fx, { path: history('/api/v1/namespaces/team-a/pods/nope') });
    assert.equal(missing.code, 404);
    assert.equal(missing.body['message'], 'pods "nope" not found');
    // A cluster-scoped object named under a namespace is not a path of the API: a Role must not reach it.
    const misplaced = await call(fx, { path: history('/api/v1/namespaces/team-a/namespaces/team-a') });
    assert.equal(misplaced.code, 404);
  });
}
