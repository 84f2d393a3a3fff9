// The history API (GET /capstan/v1/history/…): every stored revision of an object with the field
// manager that wrote it, authorized as a get of the object (history-rbac.test.ts has RBAC), served
// with the console (on by default in process, as from the CLI) even without the test API.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCapstan, type CapstanServer } from '../../src/index.js';

let server: CapstanServer;
let dir: string;
let adminToken: string;
const userToken = 'developer-token';
const cmPath = '/api/v1/namespaces/default/configmaps';

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'capstan-history-'));
  const tokenAuthFile = join(dir, 'tokens.csv');
  await writeFile(tokenAuthFile, `${userToken},developer,1001,"developers"\n`);
  server = await startCapstan({ scheme: 'http', tokenAuthFile });
  adminToken = server.kubeConfig.users[0]?.user.token ?? '';
});
after(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

async function call(
  method: string,
  path: string,
  opts: { body?: unknown; token?: string; type?: string } = {},
): Promise<{ code: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${opts.token ?? adminToken}`,
      'content-type': opts.type ?? 'application/json',
    },
    ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
  });
  return { code: res.status, body: (await res.json()) as Record<string, unknown> };
}

interface Item {
  resourceVersion: string;
  type: string;
  fieldManager?: string;
  time?: string;
  object: { data?: Record<string, string> } | null;
}

it('lists each revision with its field manager, oldest first, and the deletion', async () => {
  const created = await call('POST', `${cmPath}?fieldManager=creator`, {
    body: { metadata: { name: 'h1' }, data: { v: '1' } },
  });
  assert.equal(created.code, 201);
  const merge = 'application/merge-patch+json';
  for (const [manager, v] of [
    ['first-patcher', '2'],
    ['second-patcher', '3'],
  ] as const) {
    const r = await call('PATCH', `${cmPath}/h1?fieldManager=${manager}`, {
      body: { data: { v } },
      type: merge,
    });
    assert.equal(r.code, 200);
  }
  const h = await call('GET', `/capstan/v1/history${cmPath}/h1`);
  assert.equal(h.code, 200);
  assert.equal(h.body['kind'], 'ObjectHistory');
  const items = h.body['items'] as Item[];
  assert.deepEqual(
    items.map((i) => [i.type, i.fieldManager, i.object?.data?.['v']]),
    [
      ['ADDED', 'creator', '1'],
      ['MODIFIED', 'first-patcher', '2'],
      ['MODIFIED', 'second-patcher', '3'],
    ],
  );
  assert.ok(items.every((i) => typeof i.time === 'string'));
  assert.equal(
    items[0]?.resourceVersion,
    (created.body['metadata'] as { resourceVersion: string }).resourceVersion,
  );

  assert.equal((await call('DELETE', `${cmPath}/h1`)).code, 200);
  const after = (await call('GET', `/capstan/v1/history${cmPath}/h1`)).body['items'] as Item[];
  assert.deepEqual(
    after.map((i) => i.type),
    ['ADDED', 'MODIFIED', 'MODIFIED', 'DELETED'],
  );
});

it('serves cluster-scoped and grouped resources', async () => {
  const h = await call('GET', '/capstan/v1/history/api/v1/namespaces/default');
  assert.equal(h.code, 200);
  assert.equal((h.body['items'] as Item[])[0]?.type, 'ADDED');
  const roles = '/apis/rbac.authorization.k8s.io/v1/clusterroles';
  assert.equal((await call('POST', roles, { body: { metadata: { name: 'h-role' }, rules: [] } })).code, 201);
  const rbac = await call('GET', `/capstan/v1/history${roles}/h-role`);
  assert.equal(rbac.code, 200);
});

it('answers Status errors: NotFound; under AlwaysAllow anyone who may get the object reads it', async () => {
  const missing = await call('GET', `/capstan/v1/history${cmPath}/nope`);
  assert.equal(missing.code, 404);
  assert.equal(missing.body['message'], 'configmaps "nope" not found');
  assert.equal((await call('GET', '/capstan/v1/history/api/v1/nothings/x')).code, 404);
  const read = await call('GET', `/capstan/v1/history${cmPath}/h1`, { token: userToken });
  assert.equal(read.code, 200);
  assert.equal(read.body['kind'], 'ObjectHistory');
  const post = await call('POST', `/capstan/v1/history${cmPath}/h1`, { body: {} });
  assert.equal(post.code, 405);
  // The test API itself stays off.
  assert.equal((await call('GET', '/capstan/v1/snapshots')).code, 404);
});

it('serves the console: the page revalidated by ETag, hashed assets immutable, login links once', async () => {
  const page = await fetch(`${server.url}/console/`);
  assert.equal(page.status, 200);
  assert.equal(page.headers.get('cache-control'), 'no-cache');
  const etag = page.headers.get('etag') ?? '';
  const html = await page.text();
  const script = /src="(assets\/main-[\w]+\.js)"/.exec(html)?.[1] ?? '';
  assert.notEqual(script, '');
  const again = await fetch(`${server.url}/console/`, { headers: { 'if-none-match': etag } });
  assert.equal(again.status, 304);
  const js = await fetch(`${server.url}/console/${script}`);
  assert.equal(js.status, 200);
  assert.equal(js.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.match(js.headers.get('content-type') ?? '', /^text\/javascript/);
  assert.equal((await fetch(`${server.url}/console/assets/nope.js`)).status, 404);

  const code = (server.consoleLoginURL() ?? '').split('#login=')[1] ?? '';
  const redeem = (): Promise<Response> =>
    fetch(`${server.url}/console/login`, { method: 'POST', body: JSON.stringify({ code }) });
  const first = await redeem();
  assert.equal(first.status, 200);
  assert.deepEqual(await first.json(), { token: adminToken });
  assert.equal((await redeem()).status, 401);
});
