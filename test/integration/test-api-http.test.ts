// The test API over HTTP (--enable-test-api): only system:masters may use it, 404 when it is off,
// and each operation — snapshot, list, restore, request log, faults, clock — through the same model
// the in-process object uses.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCapstan, testAPIPrefix, type CapstanServer } from '../../src/index.js';
import { testServer } from '../../src/server/testing/test-server.js';

let server: CapstanServer;
let dir: string;
let adminToken: string;
const userToken = 'developer-token';

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'capstan-test-api-'));
  const tokenAuthFile = join(dir, 'tokens.csv');
  await writeFile(tokenAuthFile, `${userToken},developer,1001,"developers"\n`);
  server = await startCapstan({ scheme: 'http', clock: 'virtual', enableTestAPI: true, tokenAuthFile });
  adminToken = server.kubeConfig.users[0]?.user.token ?? '';
});
after(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

interface Answer {
  code: number;
  body: Record<string, unknown>;
}

async function call(method: string, path: string, body?: unknown, token = adminToken): Promise<Answer> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { code: res.status, body: (await res.json()) as Record<string, unknown> };
}

const api = (path: string): string => `${testAPIPrefix}${path}`;
const configMapPath = '/api/v1/namespaces/default/configmaps';
const createConfigMap = (name: string): Promise<Answer> =>
  call('POST', configMapPath, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
const configMapNames = async (): Promise<string[]> => {
  const { body } = await call('GET', configMapPath);
  return (body['items'] as { metadata: { name: string } }[]).map((i) => i.metadata.name).sort();
};

describe('test API over HTTP', () => {
  it('is under /capstan/v1/', () => {
    assert.equal(testAPIPrefix, '/capstan/v1/');
  });

  it('answers 403 Forbidden, as a Status, to a user outside system:masters', async () => {
    const { code, body } = await call('POST', api('snapshots'), undefined, userToken);
    assert.equal(code, 403);
    assert.equal(body['kind'], 'Status');
    assert.equal(body['reason'], 'Forbidden');
    assert.match(String(body['message']), /User "developer" cannot post path "\/capstan\/v1\/snapshots"/);
    assert.deepEqual(server.snapshots(), []);
  });

  it('is not found when the server runs without --enable-test-api', async () => {
    const { adminRequest } = testServer();
    const res = await adminRequest({ method: 'GET', url: api('clock') });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json<{ reason: string }>().reason, 'NotFound');
  });

  it('takes, lists and restores snapshots', async () => {
    assert.equal((await createConfigMap('kept')).code, 201);
    const taken = await call('POST', api('snapshots'));
    assert.equal(taken.code, 201);
    const name = String(taken.body['name']);
    assert.equal(taken.body['kind'], 'Snapshot');
    const listed = await call('GET', api('snapshots'));
    const items = listed.body['items'] as { name: string; keys: number; takenAt: number }[];
    assert.deepEqual(
      items.map((i) => i.name),
      [name],
    );
    const [info] = items;
    assert.ok(info !== undefined);
    assert.equal(info.takenAt, server.clock.now());
    assert.ok(info.keys > 0);
    await createConfigMap('later');
    assert.deepEqual(await configMapNames(), ['kept', 'later']);
    const restored = await call('POST', api(`snapshots/${name}/restore`));
    assert.deepEqual([restored.code, restored.body['status']], [200, 'Success']);
    assert.deepEqual(await configMapNames(), ['kept']);
    // In process, the same snapshot is known.
    assert.deepEqual(
      server.snapshots().map((s) => s.name),
      [name],
    );
  });

  it('answers 404 NotFound for a snapshot it did not take, 405 for a wrong method', async () => {
    const missing = await call('POST', api('snapshots/nope/restore'));
    assert.deepEqual([missing.code, missing.body['reason']], [404, 'NotFound']);
    const wrong = await call('DELETE', api('snapshots'));
    assert.deepEqual([wrong.code, wrong.body['reason']], [405, 'MethodNotAllowed']);
    const unknown = await call('GET', api('nothing-here'));
    assert.deepEqual([unknown.code, unknown.body['reason']], [404, 'NotFound']);
  });

  it('serves the request log with filters, leaves its own calls out, and clears it', async () => {
    assert.equal((await call('DELETE', api('requests'))).code, 200);
    await createConfigMap('logged');
    await call('GET', `${configMapPath}/logged`);
    const all = await call('GET', api('requests'));
    const items = all.body['items'] as { verb: string; name: string; code: number; user: string }[];
    assert.deepEqual(
      items.map((r) => [r.verb, r.name, r.code]),
      [
        ['create', '', 201],
        ['get', 'logged', 200],
      ],
    );
    const gets = await call('GET', api('requests?verb=get&resource=configmaps&code=200'));
    assert.deepEqual(
      (gets.body['items'] as { name: string }[]).map((r) => r.name),
      ['logged'],
    );
    assert.equal(server.requests({ verb: 'create' }).length, 1);
    const bad = await call('GET', api('requests?code=abc'));
    assert.deepEqual([bad.code, bad.body['reason']], [400, 'BadRequest']);
  });

  it('adds, lists, uses, removes and clears faults', async () => {
    const added = await call('POST', api('faults'), { verb: 'get', resource: 'configmaps', respond: 503 });
    assert.equal(added.code, 201);
    const id = String(added.body['id']);
    const listed = await call('GET', api('faults'));
    assert.deepEqual(
      (listed.body['items'] as { id: string }[]).map((f) => f.id),
      [id],
    );
    const faulted = await call('GET', `${configMapPath}/kept`);
    assert.deepEqual([faulted.code, faulted.body['reason']], [503, 'ServiceUnavailable']);
    // A fault never reaches the test API itself: it can always be removed.
    assert.equal((await call('DELETE', api(`faults/${id}`))).code, 200);
    assert.equal((await call('DELETE', api(`faults/${id}`))).code, 404);
    assert.equal((await call('GET', `${configMapPath}/kept`)).code, 200);
    await call('POST', api('faults'), { verb: 'list', respond: 500 });
    assert.equal(server.faults.list().length, 1);
    assert.equal((await call('DELETE', api('faults'))).code, 200);
    assert.deepEqual(server.faults.list(), []);
    const invalid = await call('POST', api('faults'), { verb: 'get', respond: 418 });
    assert.deepEqual([invalid.code, invalid.body['reason']], [400, 'BadRequest']);
    const unknownField = await call('POST', api('faults'), { respond: 500, color: 'red' });
    assert.equal(unknownField.code, 400);
  });

  it('reads, advances and sets the clock', async () => {
    const start = server.clock.now();
    const read = await call('GET', api('clock'));
    assert.deepEqual([read.body['nowMs'], read.body['virtual']], [start, true]);
    const advanced = await call('POST', api('clock/advance'), { by: '5m' });
    assert.equal(advanced.body['nowMs'], start + 300_000);
    assert.equal(server.clock.now(), start + 300_000);
    const target = new Date(start + 3_600_000).toISOString();
    const set = await call('POST', api('clock/set'), { time: target });
    assert.equal(set.body['now'], target);
    const back = await call('POST', api('clock/set'), { time: new Date(start).toISOString() });
    assert.deepEqual([back.code, back.body['reason']], [400, 'BadRequest']);
    const noStep = await call('POST', api('clock/advance'), {});
    assert.equal(noStep.code, 400);
  });
});
