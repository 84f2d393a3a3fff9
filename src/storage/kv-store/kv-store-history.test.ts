// KvStore.history over SQLite (the log table) and a real etcd (the walk back): every revision left
// by compaction, oldest first, decoded with its resourceVersion; deletions as null on SQLite.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../api/meta.js';
import { Etcd3Backend } from '../backends/etcd3/etcd-backend.js';
import { describeWithEtcd } from '../backends/etcd3/testing/describe-with-etcd.js';
import { SqliteBackend } from '../backends/sqlite/sqlite-backend.js';
import type { Backend } from '../kv/backend.js';
import { walkBackHistory } from '../kv/key-history.js';
import { KvStore } from './kv-store.js';

interface Cm extends KubeObject {
  data?: Record<string, string>;
}

const cm = (v: string): Cm => ({ metadata: { name: 'a', namespace: 'ns' }, data: { v } });

/** Writes v=1, 2, 3 and returns the three revisions. */
async function writeThree(store: KvStore<Cm>, key: string): Promise<number[]> {
  const created = await store.create(key, cm('1'));
  const revs = [Number(created.metadata?.resourceVersion)];
  for (const v of ['2', '3']) {
    const updated = await store.guaranteedUpdate(key, { tryUpdate: () => cm(v) });
    revs.push(Number(updated.metadata?.resourceVersion));
  }
  return revs;
}

function historyCases(open: () => Promise<{ backend: Backend; store: KvStore<Cm> }>): void {
  let backend: Backend;
  let store: KvStore<Cm>;
  before(async () => {
    ({ backend, store } = await open());
  });
  after(() => backend.close());

  it('reads every revision, oldest first, with its resourceVersion', async () => {
    const key = `/configmaps/ns/${randomUUID()}`;
    const revs = await writeThree(store, key);
    const h = await store.history(key);
    assert.deepEqual(
      h.revisions.map((r) => [r.revision, r.object?.data?.['v'], r.object?.metadata?.resourceVersion]),
      revs.map((rev, i) => [rev, String(i + 1), String(rev)]),
    );
    assert.ok(h.revision >= (revs[2] ?? 0));
  });

  it('starts at the compaction window', async () => {
    const key = `/configmaps/ns/${randomUUID()}`;
    const revs = await writeThree(store, key);
    await backend.compact(revs[1] ?? 0);
    const h = await store.history(key);
    assert.deepEqual(
      h.revisions.map((r) => r.revision),
      revs.slice(1),
    );
    assert.equal(h.compactRevision, revs[1]);
  });

  it('is empty for a key never written', async () => {
    assert.deepEqual((await store.history(`/configmaps/ns/${randomUUID()}`)).revisions, []);
  });
}

describe('KvStore.history over SQLite', () => {
  historyCases(async () => {
    const backend = await SqliteBackend.open({ path: ':memory:', compaction: { intervalMs: 0 } });
    return {
      backend,
      store: new KvStore<Cm>({ backend, groupResource: { group: '', resource: 'configmaps' } }),
    };
  });

  it('keeps a deletion and the object before it', async () => {
    const backend = await SqliteBackend.open({ path: ':memory:', compaction: { intervalMs: 0 } });
    try {
      const store = new KvStore<Cm>({ backend, groupResource: { group: '', resource: 'configmaps' } });
      await writeThree(store, '/configmaps/ns/a');
      const deleted = await store.delete('/configmaps/ns/a');
      const h = await store.history('/configmaps/ns/a');
      assert.deepEqual(
        h.revisions.map((r) => r.object?.data?.['v'] ?? null),
        ['1', '2', '3', null],
      );
      assert.equal(String(h.revisions[3]?.revision), deleted.metadata?.resourceVersion);
      // The walk back over the port's reads sees the same live revisions as the table (none once deleted).
      assert.deepEqual((await walkBackHistory(backend, '/registry/configmaps/ns/a')).revisions, []);
    } finally {
      await backend.close();
    }
  });
});

describeWithEtcd('KvStore.history over etcd3', (fx) => {
  historyCases(async () => {
    const backend = await Etcd3Backend.open({ endpoints: fx.etcd().endpoints });
    const store = new KvStore<Cm>({
      backend,
      pathPrefix: `/registry-${randomUUID()}`,
      groupResource: { group: '', resource: 'configmaps' },
    });
    return { backend, store };
  });
});
