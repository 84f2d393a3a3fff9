// The simulated cluster on a virtual clock: a pod deleted with its 30 s grace period is removed by
// its kubelet once the test advances the clock past it, and not before; no wall-clock wait.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { waitFor } from './support/wait-for.js';

let server: CapstanServer;
let token: string;
before(async () => {
  server = await startCapstan({ scheme: 'http', clock: 'virtual', simulate: { nodes: 1 } });
  token = server.kubeConfig.users[0]?.user.token ?? '';
});
after(() => server.stop());

const podPath = '/api/v1/namespaces/default/pods';

async function call(method: string, path: string, body?: unknown): Promise<{ code: number; body: unknown }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { code: res.status, body: await res.json() };
}

const phase = async (name: string): Promise<string> => {
  const { code, body } = await call('GET', `${podPath}/${name}`);
  if (code === 404) return 'Gone';
  const pod = body as { status?: { phase?: string }; metadata?: { deletionTimestamp?: string } };
  return `${pod.status?.phase ?? ''}${pod.metadata?.deletionTimestamp === undefined ? '' : '+deleting'}`;
};

describe('controllers on the virtual clock', () => {
  it("removes a deleted pod once advance('31s') passes its grace period", { timeout: 15_000 }, async () => {
    const started = performance.now();
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      // Its containers ignore SIGTERM (a stop time past the grace period), so the kubelet waits it out.
      metadata: { name: 'graceful', annotations: { 'capstan.dev/stop-seconds': '3600' } },
      spec: { containers: [{ name: 'app', image: 'nginx' }] },
    };
    assert.equal((await call('POST', podPath, pod)).code, 201);
    await waitFor(
      'the pod running',
      () => phase('graceful'),
      (p) => p === 'Running',
    );
    const deleted = await call('DELETE', `${podPath}/graceful`);
    assert.equal(deleted.code, 200);
    const deletionTimestamp = (deleted.body as { metadata: { deletionTimestamp: string } }).metadata
      .deletionTimestamp;
    assert.ok(Date.parse(deletionTimestamp) - server.clock.now() > 29_000, 'a 30 s grace period');
    await server.clock.advance('29s');
    assert.equal(await phase('graceful'), 'Running+deleting');
    await server.clock.advance('2s');
    await waitFor(
      'the pod gone',
      () => phase('graceful'),
      (p) => p === 'Gone',
    );
    assert.ok(performance.now() - started < 10_000, 'a 30 s grace period took no real 30 s');
  });
});
