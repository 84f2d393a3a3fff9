import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { EtcdClient } from '../backends/etcd3/etcd-client.js';
import { int64ToNumber } from '../backends/etcd3/rpc-types.js';
import { describeWithEtcd } from '../backends/etcd3/testing/describe-with-etcd.js';
import { forResource, type StorageConfig } from './config.js';
import { sqliteFileName } from './descriptors.js';
import { BackendFactory } from './factory.js';

const configmaps = { group: '', resource: 'configmaps' };
const secrets = { group: '', resource: 'secrets' };
const base = (type: string, transport: StorageConfig['transport'] = {}): StorageConfig => ({
  type,
  prefix: '/registry',
  transport,
});

describe('BackendFactory', () => {
  it('refuses etcd2 and unknown types with kube texts', async () => {
    const f = new BackendFactory();
    await assert.rejects(f.create(forResource(base('etcd2'), configmaps)), {
      message: 'etcd2 is no longer a supported storage backend',
    });
    await assert.rejects(f.create(forResource(base('leveldb'), configmaps)), {
      message: 'unknown storage type: leveldb',
    });
  });

  it('refuses etcd3 without servers', async () => {
    const f = new BackendFactory();
    await assert.rejects(
      f.create(forResource(base('etcd3'), configmaps)),
      /--etcd-servers must be specified/,
    );
  });

  it('shares one SQLite file between resources and keys objects under the prefix', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'capstan-factory-'));
    const f = new BackendFactory();
    try {
      const cfg = base('sqlite', { dataDir: dir });
      const cm = await f.create(forResource(cfg, configmaps));
      const sec = await f.create(forResource(cfg, secrets));
      assert.ok(existsSync(join(dir, sqliteFileName)));
      const a = await cm.storage.create('/configmaps/default/a', { metadata: { name: 'a' } });
      const b = await sec.storage.create('/secrets/default/b', { metadata: { name: 'b' } });
      // One backend: revisions are shared and increase across resources.
      assert.ok(Number(b.metadata?.resourceVersion) > Number(a.metadata?.resourceVersion));
      const backend = await f.backendFor(forResource(cfg, configmaps));
      const got = await backend.get('/registry/configmaps/default/a');
      assert.equal(got.kv?.key, '/registry/configmaps/default/a');
      // The backend stays open until the last resource lets go; destroy is idempotent.
      await cm.destroy();
      await cm.destroy();
      assert.equal((await sec.storage.get('/secrets/default/b'))?.metadata?.name, 'b');
      await sec.destroy();
    } finally {
      await f.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('monitors each open backend by kube-style storage_cluster_id, with its size', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'capstan-factory-'));
    const f = new BackendFactory();
    try {
      assert.deepEqual(f.monitors(), []);
      const cm = await f.create(forResource(base('sqlite', { dataDir: dir }), configmaps));
      await f.create(forResource(base('memory'), configmaps));
      const monitors = f.monitors();
      assert.deepEqual(
        monitors.map((m) => m.storageClusterId),
        ['sqlite-0', 'memory-0'],
      );
      const size = async (i: number): Promise<number> => (await monitors[i]?.size()) ?? -1;
      const before = await size(0);
      // The database as SQLite counts it (page_count × page_size) covers at least the main file.
      assert.ok(before >= statSync(join(dir, sqliteFileName)).size, `${before}`);
      const big = 'x'.repeat(200_000);
      await cm.storage.create('/configmaps/default/big', { metadata: { name: 'big' }, data: { big } });
      assert.ok((await size(0)) >= before + 150_000);
      assert.ok((await size(1)) > 0);
    } finally {
      await f.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('memory serves the same engine in process', async () => {
    const f = new BackendFactory();
    const mem = await f.create(forResource(base('memory'), configmaps));
    await mem.storage.create('/configmaps/x/y', { metadata: { name: 'y' } });
    assert.equal(await mem.storage.count('/configmaps/x'), 1);
    await f.close();
  });
});

describeWithEtcd('BackendFactory on etcd3', (fx) => {
  it('stores under the prefix on etcd and closes the client on destroy', async () => {
    const f = new BackendFactory();
    const cfg = forResource(
      { ...base('etcd3', { serverList: fx.etcd().endpoints }), compactionIntervalMs: 0 },
      configmaps,
    );
    const raw = await f.create(cfg);
    await raw.storage.create('/configmaps/default/e', { metadata: { name: 'e' } });
    const backend = await f.backendFor(cfg);
    assert.equal(
      (await backend.get('/registry/configmaps/default/e')).kv?.key,
      '/registry/configmaps/default/e',
    );
    // kube's storage_cluster_id for the first etcd, sized by etcd's own Status (dbSize).
    const monitor = f.monitors()[0];
    assert.equal(monitor?.storageClusterId, 'etcd-0');
    const client = new EtcdClient({ endpoints: fx.etcd().endpoints });
    try {
      assert.equal(await monitor.size(), int64ToNumber((await client.call('status', {})).dbSize));
    } finally {
      client.close();
    }
    await raw.destroy();
    await f.close();
  });
});
