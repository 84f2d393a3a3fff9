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
  assert.equal(watchTimeoutMs(-3, 1800), -3000);
  // Go's Duration wraps: 2^55 s is zero nanoseconds, which kube takes as no timeoutSeconds.
  const wrappedToZero = watchTimeoutMs(2 ** 55, 1800);
  assert.ok(wrappedToZero >= 1800_000 && wrappedToZero < 3600_000);
});

// Ten billion seconds are -8.4e18 ns in an int64, as kube's Duration holds them.
for (const timeoutSeconds of ['-1', '10000000000']) {
  test(
    `a watch with timeoutSeconds=${timeoutSeconds} times out at once, as in kube`,
    { timeout: 10_000 },
    async () => {
      const path = `/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=${timeoutSeconds}`;
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const req = request({ port, host: '127.0.0.1', path }, (res) => {
          res.resume();
          res.on('end', () => {
            resolve(res.statusCode);
          });
        });
        req.on('error', reject);
        req.end();
      });
      assert.equal(status, 200);
      assert.equal(await served.at(-1), true);
    },
  );
}

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
