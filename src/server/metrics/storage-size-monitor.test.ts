import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { SqliteBackend } from '../../storage/backends/sqlite/sqlite-backend.js';
import { forResource } from '../../storage/backend-factory/config.js';
import { BackendFactory } from '../../storage/backend-factory/factory.js';
import { ApiserverMetrics } from './apiserver-metrics.js';
import { startStorageSizeMonitor } from './storage-size-monitor.js';

const sizeLine = /^apiserver_storage_size_bytes\{storage_cluster_id="([^"]+)"\} (\d+)$/gm;

async function sizes(metrics: ApiserverMetrics): Promise<Map<string, number>> {
  const { body } = await metrics.render();
  return new Map([...body.matchAll(sizeLine)].map((m) => [m[1] ?? '', Number(m[2])]));
}

async function waitFor(cond: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await cond())) {
    if (Date.now() > deadline) assert.fail('timed out');
    await sleep(10);
  }
}

describe('storage size monitor', () => {
  it('publishes each storage size under kube’s name and label, and follows it', async () => {
    const metrics = new ApiserverMetrics();
    const factory = new BackendFactory();
    const config = forResource(
      { type: 'memory', prefix: '/registry', transport: {} },
      { group: '', resource: 'configmaps' },
    );
    const stop = startStorageSizeMonitor({
      storages: () => factory.monitors(),
      intervalMs: 20,
      metric: metrics.storageSizeMetric,
    });
    try {
      const { storage } = await factory.create(config);
      const backend = await factory.backendFor(config);
      await waitFor(async () => (await sizes(metrics)).get('memory-0') === (await backend.size()));
      const before = await backend.size();
      await storage.create('/configmaps/default/big', {
        metadata: { name: 'big' },
        data: { v: 'x'.repeat(100_000) },
      });
      await waitFor(async () => ((await sizes(metrics)).get('memory-0') ?? 0) >= before + 50_000);
      const { body } = await metrics.render();
      assert.match(
        body,
        /# HELP apiserver_storage_size_bytes Size of the storage database file physically allocated in bytes\./,
      );
      assert.match(body, /# TYPE apiserver_storage_size_bytes gauge/);
    } finally {
      await stop();
      await factory.close();
      metrics.close();
    }
  });

  it('drops a storage that fails to answer and reports why', async () => {
    const metrics = new ApiserverMetrics();
    const closed = await SqliteBackend.open({ path: ':memory:' });
    const open = await SqliteBackend.open({ path: ':memory:' });
    await closed.close();
    const errors: string[] = [];
    metrics.storageSizeMetric.set('sqlite-1', 123);
    const stop = startStorageSizeMonitor({
      storages: () => [
        { storageClusterId: 'sqlite-0', size: () => open.size() },
        { storageClusterId: 'sqlite-1', size: () => closed.size() },
      ],
      intervalMs: 20,
      metric: metrics.storageSizeMetric,
      onError: (id) => errors.push(id),
    });
    try {
      await waitFor(() => Promise.resolve(errors.length > 0));
      const got = await sizes(metrics);
      assert.deepEqual([...got.keys()], ['sqlite-0']);
      assert.equal(got.get('sqlite-0'), await open.size());
      assert.equal(errors[0], 'sqlite-1');
    } finally {
      await stop();
      await open.close();
      metrics.close();
    }
  });

  it('does nothing with a 0 interval (--etcd-db-metric-poll-interval=0)', async () => {
    const metrics = new ApiserverMetrics();
    const backend = await SqliteBackend.open({ path: ':memory:' });
    let polled = 0;
    const stop = startStorageSizeMonitor({
      storages: () => [{ storageClusterId: 'sqlite-0', size: () => (polled++, backend.size()) }],
      intervalMs: 0,
      metric: metrics.storageSizeMetric,
    });
    await sleep(50);
    await stop();
    assert.equal(polled, 0);
    assert.equal((await sizes(metrics)).size, 0);
    await backend.close();
    metrics.close();
  });
});
