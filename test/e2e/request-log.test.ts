// The request log over a kubectl session against an in-process server: each call kubectl makes is
// there with its user, verb, resource, name, fieldManager, dryRun, code and (asked for) bodies.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { kubectlSession } from './support/kubectl-session.js';

let server: CapstanServer;
const k = kubectlSession(() => server.kubeconfigPath);
before(async () => {
  server = await startCapstan({ requestLog: { bodies: true } });
});
after(() => server.stop());

describe('request log', () => {
  it('records the calls of a kubectl session', async () => {
    await k.ok(['create', 'configmap', 'logged', '--from-literal=colour=blue']);
    await k.ok([
      'patch',
      'configmap',
      'logged',
      '--type=merge',
      '-p',
      '{"data":{"colour":"red"}}',
      '--dry-run=server',
    ]);
    await k.ok(['get', 'configmap', 'logged', '-o', 'name']);
    await k.fails(['get', 'configmap', 'absent']);

    const [created, ...moreCreates] = server.requests({ verb: 'create', resource: 'configmaps' });
    assert.equal(moreCreates.length, 0);
    assert.ok(created !== undefined);
    assert.equal(created.code, 201);
    assert.equal(created.namespace, 'default');
    assert.equal(created.fieldManager, 'kubectl-create');
    assert.equal(created.dryRun, false);
    assert.ok(created.groups.includes('system:masters'), created.groups.join());
    assert.match(created.userAgent, /^kubectl[^/]*\/v1\./);
    // kubectl sends and accepts protobuf: the bodies are the bytes on the wire.
    assert.ok(created.requestBody?.includes('colour') === true && created.requestBody.includes('blue'));
    assert.ok(created.responseBody?.includes('logged') === true && created.responseBody.includes('uid'));

    const patched = server.requests({ verb: 'patch', resource: 'configmaps', name: 'logged' });
    assert.deepEqual(
      patched.map((r) => [r.code, r.dryRun, r.fieldManager, r.query['dryRun']]),
      [[200, true, 'kubectl-patch', 'All']],
    );

    // kubectl patch reads the object before it patches it, then come the two gets.
    const gets = server.requests({ verb: 'get', resource: 'configmaps' });
    assert.deepEqual(
      gets.map((r) => [r.name, r.code]),
      [
        ['logged', 200],
        ['logged', 200],
        ['absent', 404],
      ],
    );
    assert.ok(gets.every((r) => r.latencyMs >= 0 && r.user === created.user));
    assert.ok(server.requests().some((r) => r.path === '/api' || r.path === '/apis'));
  });

  it('forgets what was logged when cleared', async () => {
    assert.ok(server.requests().length > 0);
    server.clearRequests();
    assert.deepEqual(server.requests(), []);
    await k.ok(['get', 'configmap', 'logged', '-o', 'name']);
    assert.equal(server.requests({ verb: 'get', resource: 'configmaps', name: 'logged' }).length, 1);
  });
});
