import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { coreAPI, testUser, type CoreAPI } from '../testing/core-api.js';
import { watchTimeoutMs } from './watch.js';

let api: CoreAPI;
let server: Server;
let port = 0;
const served: Promise<boolean>[] = [];

before(async () => {
  api = await coreAPI();
  server = createServer((req, res) => {
    served.push(api.handler.handle(req, res, { user: testUser }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

after(async () => {
  await new Promise((resolve) => server.close(resolve));
  await api.close();
});

test('a watch without timeoutSeconds lasts minRequestTimeout times [1, 2)', () => {
  for (let i = 0; i < 100; i++) {
    const ms = watchTimeoutMs(undefined, 1800);
    assert.ok(ms >= 1800_000 && ms < 3600_000);
  }
  assert.equal(watchTimeoutMs(5, 1800), 5000);
});

test('a watch ends cleanly when the client goes away', async () => {
  const req = request({ port, host: '127.0.0.1', path: '/api/v1/namespaces/default/configmaps?watch=true' });
  const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
    req.on('response', (res) => {
      resolve(res.headers);
    });
    req.on('error', reject);
    req.end();
  });
  assert.equal(headers['content-type'], 'application/json');
  assert.equal(headers['transfer-encoding'], 'chunked');
  req.destroy();
  const done = served.at(-1);
  assert.ok(done !== undefined);
  const finished = await Promise.race([
    done,
    new Promise((r) => {
      setTimeout(() => {
        r('timeout');
      }, 2000);
    }),
  ]);
  assert.equal(finished, true);
});
