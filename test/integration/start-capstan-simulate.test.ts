// startCapstan's `simulate` option: off by default (no simulated-cluster hook runs), and with
// `{ nodes: 2 }` the server registers two Ready simulated nodes.
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
});
