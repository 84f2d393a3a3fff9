// --runtime-config: a resource turned off vanishes from discovery and OpenAPI and answers 404.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';

async function get(server: CapstanServer, path: string): Promise<{ status: number; body: string }> {
  const token = server.kubeConfig.users[0]?.user.token ?? '';
  const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.text() };
}

test('api/v1/secrets=false removes secrets from discovery, OpenAPI and routing', async () => {
  const server = await startCapstan({
    storage: 'memory',
    scheme: 'http',
    runtimeConfig: ['api/v1/secrets=false'],
  });
  try {
    const discovery = JSON.parse((await get(server, '/api/v1')).body) as { resources: { name: string }[] };
    const names = discovery.resources.map((r) => r.name);
    assert.ok(names.includes('configmaps'));
    assert.ok(!names.includes('secrets'), names.join(','));
    const openapi = await get(server, '/openapi/v2');
    assert.ok(openapi.body.includes('/api/v1/namespaces/{namespace}/configmaps'));
    assert.ok(!openapi.body.includes('/api/v1/namespaces/{namespace}/secrets'));
    const secrets = await get(server, '/api/v1/namespaces/default/secrets');
    assert.equal(secrets.status, 404);
    assert.equal((await get(server, '/api/v1/namespaces/default/configmaps')).status, 200);
  } finally {
    await server.stop();
  }
});
