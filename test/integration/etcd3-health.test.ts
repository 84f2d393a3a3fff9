// The storage checks and the storage size metric of a server on etcd3: `etcd` on /healthz, /livez
// and /readyz, `etcd-readiness` on /readyz only, all red with kube's texts while etcd is down and
// green again once it is back; apiserver_storage_size_bytes{storage_cluster_id="etcd-0"} follows
// etcd's own dbSize at --etcd-db-metric-poll-interval and drops out while etcd does not answer.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { EtcdClient } from '../../src/storage/backends/etcd3/etcd-client.js';
import { int64ToNumber } from '../../src/storage/backends/etcd3/rpc-types.js';
import { requireEtcd, startEtcd } from '../../src/storage/backends/etcd3/testing/etcd-process.js';
import { startInProcess, type InProcessServer } from './support/in-process-server.js';

const sizeMetric = /^apiserver_storage_size_bytes\{storage_cluster_id="etcd-0"\} (\d+)$/m;

async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await probe();
    if (got !== undefined) return got;
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

async function metricSize(s: InProcessServer): Promise<number | undefined> {
  const m = sizeMetric.exec((await s.request('/metrics')).body);
  return m === null ? undefined : Number(m[1]);
}

it(
  'storage checks and the size metric follow etcd going down and coming back',
  { timeout: 60_000 },
  async (t: TestContext) => {
    if (!requireEtcd(t)) return;
    const etcd = await startEtcd();
    const dir = await mkdtemp(join(tmpdir(), 'capstan-etcd-health-'));
    const member = etcd.members[0];
    assert.ok(member !== undefined);
    let s: InProcessServer | undefined;
    const client = new EtcdClient({ endpoints: etcd.endpoints });
    try {
      s = await startInProcess((o) => {
        o.storage.backend = 'etcd3';
        o.storage.etcdServers = [...etcd.endpoints];
        o.storage.dataDir = dir;
        o.storage.dbMetricPollIntervalMs = 100;
        o.storage.countMetricPollPeriodMs = 100;
        o.storage.healthcheckTimeoutMs = 500;
        o.storage.readycheckTimeoutMs = 700;
      });
      const server = s;
      const ready = await server.request('/readyz?verbose');
      assert.equal(ready.status, 200);
      assert.match(ready.body, /^\[\+\]ping ok\n\[\+\]log ok\n\[\+\]etcd ok\n\[\+\]etcd-readiness ok\n/);
      for (const path of ['/healthz/etcd', '/livez/etcd', '/readyz/etcd', '/readyz/etcd-readiness']) {
        const { status, body } = await server.request(path);
        assert.deepEqual({ status, body }, { status: 200, body: 'ok' }, path);
      }
      assert.equal((await server.request('/livez/etcd-readiness')).status, 404);
      assert.doesNotMatch((await server.request('/livez?verbose')).body, /etcd-readiness/);

      // The metric is etcd's own Status dbSize (nothing writes meanwhile, so the two settle equal).
      const dbSize = async (): Promise<number> => int64ToNumber((await client.call('status', {})).dbSize);
      const size = await eventually('the size metric to match etcd', async () => {
        const [m, d] = [await metricSize(server), await dbSize()];
        return m !== undefined && m === d ? m : undefined;
      });
      assert.ok(size > 0);
      // --etcd-count-metric-poll-period reaches the stores' object counts too.
      const namespaces = await eventually('namespaces counted', async () => {
        const m = /^apiserver_storage_objects\{resource="namespaces"\} (\d+)$/m.exec(
          (await server.request('/metrics')).body,
        );
        return m === null ? undefined : Number(m[1]);
      });
      assert.ok(namespaces >= 4, `${namespaces} namespaces`);

      await member.kill();
      const down = await eventually('readyz to turn red', async () => {
        const res = await server.request('/readyz?verbose');
        return res.status === 500 ? res.body : undefined;
      });
      assert.match(
        down,
        /\n\[-\]etcd failed: reason withheld\n\[-\]etcd-readiness failed: reason withheld\n[\s\S]*readyz check failed\n$/,
      );
      const live = await server.request('/livez?verbose');
      assert.equal(live.status, 500);
      assert.match(live.body, /\n\[-\]etcd failed: reason withheld\n[\s\S]*livez check failed\n$/);
      for (const path of ['/healthz/etcd', '/livez/etcd', '/readyz/etcd', '/readyz/etcd-readiness']) {
        const res = await server.request(path);
        assert.equal(res.status, 500, path);
        assert.match(res.body, /^internal server error: .+\n$/, path);
      }
      await eventually('the size metric to drop out', async () =>
        (await metricSize(server)) === undefined ? true : undefined,
      );
      assert.ok(server.logLines.some((l) => l.includes('Failed to get storage metrics')));

      await member.restart();
      await eventually('readyz to turn green', async () =>
        (await server.request('/readyz')).status === 200 ? true : undefined,
      );
      assert.equal((await server.request('/livez')).status, 200);
      const back = await eventually('the size metric to return', () => metricSize(server));
      assert.ok(back >= size);
      t.diagnostic(
        `dbSize ${size} bytes; red while down: ${down
          .split('\n')
          .filter((l) => l.startsWith('[-]'))
          .join(' ')}`,
      );
    } finally {
      client.close();
      await s?.stop();
      await etcd.stop();
      await rm(dir, { recursive: true, force: true });
    }
  },
);
