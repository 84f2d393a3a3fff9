// startCapstan's `simulate` option: off by default (no simulated-cluster hook runs), and with
// `{ nodes: 2 }` the server registers two Ready simulated nodes; its controllers' work queues show in
// /metrics under kube's queue names.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { waitFor } from './support/wait-for.js';

const get = async (server: CapstanServer, path: string): Promise<string> => {
  const token = server.kubeConfig.users[0]?.user.token ?? '';
  const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return res.text();
};

describe('startCapstan({ simulate })', () => {
  let plain: CapstanServer;
  let simulated: CapstanServer;
  before(async () => {
    [plain, simulated] = await Promise.all([
      startCapstan({ scheme: 'http' }),
      startCapstan({ scheme: 'http', simulate: { nodes: 2 } }),
    ]);
  });
  after(async () => {
    await Promise.all([plain.stop(), simulated.stop()]);
  });

  it('runs no simulated cluster unless asked', async () => {
    assert.doesNotMatch(await get(plain, '/readyz?verbose'), /start-simulated-cluster/);
    assert.match(await get(simulated, '/readyz?verbose'), /\[\+\]poststarthook\/start-simulated-cluster ok/);
  });

  it('registers the number of nodes asked for', async () => {
    const names = await waitFor(
      'two nodes',
      async () =>
        (
          JSON.parse(await get(simulated, '/api/v1/nodes')) as { items: { metadata: { name: string } }[] }
        ).items.map((n) => n.metadata.name),
      (l) => l.length === 2,
    );
    assert.deepEqual(names.sort(), ['sim-node-0', 'sim-node-1']);
  });

  it("publishes the controllers' work queue metrics under kube's queue names", async () => {
    const token = simulated.kubeConfig.users[0]?.user.token ?? '';
    const created = await fetch(`${simulated.url}/apis/apps/v1/namespaces/default/deployments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'queued' },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'queued' } },
          template: {
            metadata: { labels: { app: 'queued' } },
            spec: { containers: [{ name: 'c', image: 'nginx' }] },
          },
        },
      }),
    });
    assert.equal(created.status, 201);
    const adds = (text: string): number =>
      Number(/^workqueue_adds_total\{name="deployment"\} (\S+)$/m.exec(text)?.[1] ?? 0);
    const text = await waitFor(
      'deployment queue adds',
      () => get(simulated, '/metrics'),
      (t) => adds(t) > 0,
    );
    assert.match(text, /^workqueue_depth\{name="deployment"\} \d+$/m);
    assert.match(text, /^workqueue_work_duration_seconds_count\{name="deployment"\} \d+$/m);
    assert.match(text, /^# TYPE workqueue_queue_duration_seconds histogram$/m);
  });
});
