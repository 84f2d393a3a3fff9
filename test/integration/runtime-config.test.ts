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

test('apps/v1=false removes the whole group from /apis, OpenAPI and routing; batch stays', async () => {
  const server = await startCapstan({ storage: 'memory', scheme: 'http', runtimeConfig: ['apps/v1=false'] });
  try {
    const groups = JSON.parse((await get(server, '/apis')).body) as { groups: { name: string }[] };
    const names = groups.groups.map((g) => g.name);
    assert.ok(names.includes('batch'), names.join(','));
    assert.ok(!names.includes('apps'), names.join(','));
    assert.equal((await get(server, '/apis/apps/v1')).status, 404);
    assert.equal((await get(server, '/apis/apps/v1/namespaces/default/deployments')).status, 404);
    assert.equal((await get(server, '/apis/batch/v1/namespaces/default/jobs')).status, 200);
    const openapi = await get(server, '/openapi/v2');
    assert.ok(!openapi.body.includes('/apis/apps/v1/'));
  } finally {
    await server.stop();
  }
});

test('a single resource of a named group can be turned off: apps/v1/daemonsets=false', async () => {
  const server = await startCapstan({
    storage: 'memory',
    scheme: 'http',
    runtimeConfig: ['apps/v1/daemonsets=false'],
  });
  try {
    const list = JSON.parse((await get(server, '/apis/apps/v1')).body) as { resources: { name: string }[] };
    const names = list.resources.map((r) => r.name);
    assert.ok(names.includes('deployments'), names.join(','));
    assert.ok(!names.includes('daemonsets'), names.join(','));
    assert.equal((await get(server, '/apis/apps/v1/namespaces/default/daemonsets')).status, 404);
  } finally {
    await server.stop();
  }
});
