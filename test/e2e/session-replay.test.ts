// Record and replay: a kubectl session against one in-process server whose request log keeps bodies,
// replayed against fresh servers, in process (`server.replay`) and with `capstan replay FILE`: every
// write gets the answer it got when recorded, each as the user who sent it, and the second server
// ends up holding what the session made.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { runReplayCommand } from '../../src/cmd/test-api/replay-command.js';
import { requestRecordJson } from '../../src/server/test-api/wire.js';
import { kubectlSession } from './support/kubectl-session.js';

let recorded: CapstanServer;
let replayed: CapstanServer;
let dir: string;
const k = kubectlSession(() => recorded.kubeconfigPath);
const k2 = kubectlSession(() => replayed.kubeconfigPath);

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'capstan-replay-'));
  [recorded, replayed] = await Promise.all([
    startCapstan({ requestLog: { bodies: true } }),
    startCapstan(),
  ]);
});
after(async () => {
  await Promise.all([recorded.stop(), replayed.stop()]);
  await rm(dir, { recursive: true, force: true });
});

const configMaps = async (session: typeof k): Promise<string> =>
  session.ok([
    'get',
    'configmaps',
    '-n',
    'replay',
    '--field-selector=metadata.name!=kube-root-ca.crt',
    '-o',
    'jsonpath={range .items[*]}{.metadata.name}={.data}{"\\n"}{end}',
  ]);

describe('session replay', () => {
  it('replays a recorded session: same answers, same users, same objects', async () => {
    await k.ok(['create', 'namespace', 'replay']);
    await k.ok(['create', 'configmap', 'a', '-n', 'replay', '--from-literal=colour=blue']);
    await k.ok(['patch', 'configmap', 'a', '-n', 'replay', '-p', '{"data":{"colour":"red"}}']);
    await k.ok(['create', 'configmap', 'b', '-n', 'replay', '--from-literal=x=1', '--as=jane']);
    await k.ok(
      ['apply', '--server-side', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'c', namespace: 'replay' },
        data: { k: 'v' },
      }),
    );
    await k.fails(['create', 'configmap', 'a', '-n', 'replay']);
    await k.ok(['delete', 'configmap', 'b', '-n', 'replay']);
    const want = await configMaps(k);
    assert.equal(want, 'a={"colour":"red"}\nc={"k":"v"}\n');

    const calls = await replayed.replay(recorded.requests());
    assert.deepEqual(
      calls.map((c) => [c.verb, c.resource, c.name, c.user, c.recordedCode, c.code]),
      [
        ['create', 'namespaces', '', 'capstan-admin', 201, 201],
        ['create', 'configmaps', '', 'capstan-admin', 201, 201],
        ['patch', 'configmaps', 'a', 'capstan-admin', 200, 200],
        ['create', 'configmaps', '', 'jane', 201, 201],
        ['patch', 'configmaps', 'c', 'capstan-admin', 201, 201],
        ['create', 'configmaps', '', 'capstan-admin', 409, 409],
        ['delete', 'configmaps', 'b', 'capstan-admin', 200, 200],
      ],
    );
    assert.equal(await configMaps(k2), want);
    // The replayed server saw jane, not the admin who replayed.
    const creates = replayed.requests({ verb: 'create', resource: 'configmaps', user: 'jane' });
    assert.equal(creates.length, 1);
  });

  it('replays a session from its file with capstan replay, and says when an answer differs', async () => {
    const file = join(dir, 'session.json');
    const items = recorded.requests().map(requestRecordJson);
    await writeFile(file, JSON.stringify({ kind: 'RequestList', items }));
    // The same session again: the namespace and the objects exist now, so the creates are refused.
    let out = '';
    let err = '';
    const io = { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } };
    const code = await runReplayCommand([file, '--kubeconfig', replayed.kubeconfigPath], io);
    assert.equal(err, '');
    assert.equal(code, 1);
    const lines = out.split('\n');
    assert.equal(lines[0], 'create namespaces  as capstan-admin: 409 (recorded 201)');
    assert.equal(lines[2], 'patch configmaps replay/a as capstan-admin: 200');
  });
});
