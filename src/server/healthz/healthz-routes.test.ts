import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testServer } from '../testing/test-server.js';
import { namedCheck, readyzOnly } from './health-checker.js';

const failingEtcd = namedCheck('etcd', () => {
  throw new Error('connection refused');
});
const okEtcd = namedCheck('etcd', () => undefined);

describe('health endpoints', () => {
  it('answers a bare ok, as kube does without ?verbose', async () => {
    const { request } = testServer({ config: { anonymousAuth: true, healthChecks: [okEtcd] } });
    for (const path of ['/healthz', '/livez', '/readyz']) {
      const res = await request(path);
      assert.equal(res.statusCode, 200);
      assert.equal(res.payload, 'ok');
      assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
    }
  });

  it('lists every check with ?verbose', async () => {
    const { request } = testServer({ config: { anonymousAuth: true, healthChecks: [okEtcd] } });
    const res = await request('/readyz?verbose');
    assert.equal(res.payload, '[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]shutdown ok\nreadyz check passed\n');
    const live = await request('/livez?verbose');
    assert.equal(live.payload, '[+]ping ok\n[+]log ok\n[+]etcd ok\nlivez check passed\n');
  });

  it('fails with 500, withholding the reason, and logs it', async () => {
    const { request, logLines } = testServer({
      config: { anonymousAuth: true, healthChecks: [failingEtcd] },
    });
    const res = await request('/readyz');
    assert.equal(res.statusCode, 500);
    assert.equal(
      res.payload,
      '[+]ping ok\n[+]log ok\n[-]etcd failed: reason withheld\n[+]shutdown ok\nreadyz check failed\n',
    );
    assert.ok(logLines.some((l) => l.includes('[-]etcd failed: connection refused')));
  });

  it('serves each check on its own path with the reason (authenticated)', async () => {
    const { adminRequest } = testServer({ config: { anonymousAuth: true, healthChecks: [failingEtcd] } });
    const bad = await adminRequest('/readyz/etcd');
    assert.equal(bad.statusCode, 500);
    assert.equal(bad.payload, 'internal server error: connection refused\n');
    const ok = await adminRequest('/readyz/ping');
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.payload, 'ok');
  });

  it('serves a readyz-only check (etcd-readiness) on /readyz alone', async () => {
    const notReady = readyzOnly(
      namedCheck('etcd-readiness', () => {
        throw new Error('context deadline exceeded');
      }),
    );
    const { request, adminRequest } = testServer({
      config: { anonymousAuth: true, healthChecks: [okEtcd, notReady] },
    });
    const ready = await request('/readyz?verbose');
    assert.equal(ready.statusCode, 500);
    assert.equal(
      ready.payload,
      '[+]ping ok\n[+]log ok\n[+]etcd ok\n[-]etcd-readiness failed: reason withheld\n[+]shutdown ok\nreadyz check failed\n',
    );
    for (const path of ['/livez', '/healthz']) {
      const res = await request(`${path}?verbose`);
      assert.equal(res.statusCode, 200);
      assert.equal(res.payload, `[+]ping ok\n[+]log ok\n[+]etcd ok\n${path.slice(1)} check passed\n`);
      assert.equal((await adminRequest(`${path}/etcd-readiness`)).statusCode, 404);
    }
    const own = await adminRequest('/readyz/etcd-readiness');
    assert.equal(own.statusCode, 500);
    assert.equal(own.payload, 'internal server error: context deadline exceeded\n');
  });

  it('excludes checks and warns about names it does not know', async () => {
    const { request } = testServer({ config: { anonymousAuth: true, healthChecks: [failingEtcd] } });
    const res = await request('/readyz?verbose&exclude=etcd&exclude=nope');
    assert.equal(res.statusCode, 200);
    assert.equal(
      res.payload,
      '[+]ping ok\n[+]log ok\n[+]etcd excluded: ok\n[+]shutdown ok\nwarn: some health checks cannot be excluded: no matches for "nope"\nreadyz check passed\n',
    );
  });

  it('is red until post-start hooks finish, and red again once shutdown begins', async () => {
    const t = testServer({ config: { anonymousAuth: true } });
    let finish!: () => void;
    t.server.addPostStartHook('slow', () => new Promise<void>((resolve) => (finish = resolve)));
    assert.equal(
      (await t.request('/readyz?verbose')).payload.includes('[-]poststarthook/slow failed: reason withheld'),
      true,
    );
    await t.server.start();
    finish();
    await t.server.ready;
    assert.equal((await t.request('/readyz')).statusCode, 200);
    let duringShutdown = '';
    t.server.addPreShutdownHook('probe', async () => {
      duringShutdown = (await t.request('/readyz')).payload;
    });
    await t.server.shutdown();
    assert.equal(
      duringShutdown,
      '[+]ping ok\n[+]log ok\n[+]poststarthook/slow ok\n[-]shutdown failed: reason withheld\nreadyz check failed\n',
    );
    const after = await t.request('/healthz');
    assert.equal(after.statusCode, 503);
  });
});
