// startCapstan({ console: false }): no console, no login link and no history API, as --console=false
// (history-api.test.ts has the default, on for the embedded store).
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCapstan, type CapstanServer } from '../../src/index.js';

let server: CapstanServer | undefined;

before(async () => {
  server = await startCapstan({ scheme: 'http', console: false });
});
after(async () => {
  await server?.stop();
});

it('serves neither the console nor the history API', async () => {
  assert.ok(server !== undefined);
  assert.equal(server.consoleLoginURL(), undefined);
  const token = server.kubeConfig.users[0]?.user.token ?? '';
  const get = (path: string): Promise<Response> =>
    fetch(`${server?.url ?? ''}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const page = await get('/console/');
  assert.equal(page.status, 404);
  const history = await get('/capstan/v1/history/api/v1/namespaces/default');
  assert.equal(history.status, 404);
  assert.equal(((await history.json()) as { reason?: string }).reason, 'NotFound');
  assert.equal((await get('/api/v1/namespaces/default')).status, 200);
});
