// Etcd3Backend behaviour that only a real etcd shows: sharing one etcd, leases, large responses,
// revision errors with their numbers, unavailability.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { BackendUnavailableError, CompactedError, prefixRange } from '../../kv/backend.js';
import { WatchRecorder } from '../../kv/testing/watch-recorder.js';
import { Etcd3Backend } from './etcd-backend.js';
import { EtcdClient } from './etcd-client.js';
import { keyBytes } from './kv-convert.js';
import { int64ToString } from './rpc-types.js';
import { describeWithEtcd } from './testing/describe-with-etcd.js';
import { freePort } from './testing/etcd-process.js';

const buf = (s: string): Buffer => Buffer.from(s);
const eventually = async (check: () => boolean): Promise<void> => {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > 5000) throw new Error('timed out');
    await sleep(5);
  }
};
let n = 0;
const prefix = (): string => `/etcd3-test/${++n}-${Date.now().toString(36)}/`;

describeWithEtcd('Etcd3Backend on a real etcd', (fx) => {
  const open = (): Etcd3Backend => new Etcd3Backend({ endpoints: fx.etcd().endpoints });

  it('two backends on one etcd see each other’s writes through watch', async () => {
    const a = open();
    const b = open();
    try {
      const p = prefix();
      const recA = new WatchRecorder(5000);
      const recB = new WatchRecorder(5000);
      const from = (await a.currentRevision()) + 1;
      a.watch(prefixRange(p), { fromRevision: from }, recA);
      b.watch(prefixRange(p), { fromRevision: from }, recB);
      const w1 = await a.create(`${p}from-a`, buf('1'));
      const w2 = await b.create(`${p}from-b`, buf('2'));
      assert.ok(w1.ok && w2.ok);
      for (const rec of [recA, recB]) {
        await rec.waitForEvents(2);
        assert.deepEqual(rec.revisions, [w1.revision, w2.revision]);
      }
      assert.equal((await a.get(`${p}from-b`)).kv?.value.toString(), '2');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('reuses one lease for keys with the same TTL inside the reuse window, as kube does', async () => {
    const be = open();
    const raw = new EtcdClient({ endpoints: fx.etcd().endpoints });
    try {
      const p = prefix();
      const leaseOf = async (key: string): Promise<string> =>
        int64ToString((await raw.call('range', { key: keyBytes(key) })).kvs[0]?.lease);
      // TTL 600 s: window min(5 % × 600, 60) = 30 s, so every key written now shares one lease.
      for (const k of ['a', 'b', 'c']) assert.ok((await be.create(`${p}${k}`, buf(k), { ttl: 600 })).ok);
      const leases = await Promise.all(['a', 'b', 'c'].map((k) => leaseOf(`${p}${k}`)));
      assert.notEqual(leases[0], '0');
      assert.deepEqual(new Set(leases).size, 1);
      assert.equal(be.leaseManager.grantedCount, 1);
      // Concurrent writers wait for the one grant instead of each granting a lease.
      await Promise.all(['d', 'e', 'f'].map((k) => be.create(`${p}${k}`, buf(k), { ttl: 600 })));
      assert.equal(be.leaseManager.grantedCount, 1);
      // A TTL so short that its window rounds to 0 s gets a lease of its own each time.
      await be.create(`${p}s1`, buf('s'), { ttl: 5 });
      await be.create(`${p}s2`, buf('s'), { ttl: 5 });
      assert.equal(be.leaseManager.grantedCount, 3);
      assert.notEqual(await leaseOf(`${p}s1`), await leaseOf(`${p}s2`));
    } finally {
      raw.close();
      await be.close();
    }
  });

  it('lists responses larger than gRPC’s usual 4 MB message limit', async () => {
    const be = open();
    try {
      const p = prefix();
      const big = Buffer.alloc(1024 * 1024, 'x');
      for (let i = 0; i < 6; i++) assert.ok((await be.create(`${p}${i}`, big)).ok);
      const res = await be.list(prefixRange(p));
      assert.equal(res.kvs.length, 6);
      assert.ok(res.kvs.every((kv) => kv.value.equals(big)));
    } finally {
      await be.close();
    }
  });

  it('finds the compacted revision without having compacted itself', async () => {
    const a = open();
    const b = open();
    try {
      const p = prefix();
      const r1 = await a.create(`${p}k`, buf('1'));
      assert.ok(r1.ok);
      const r2 = await a.update(`${p}k`, buf('2'), { modRevision: r1.revision });
      assert.ok(r2.ok);
      await a.compact(r2.revision);
      assert.equal(await b.compactRevision(), r2.revision);
      await a.compact(r1.revision); // below the compacted revision: a no-op
      await assert.rejects(b.get(`${p}k`, { revision: r1.revision }), (err: unknown) => {
        return (
          err instanceof CompactedError &&
          err.compactRevision === r2.revision &&
          err.requestedRevision === r1.revision
        );
      });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('does not send progress requests to an etcd that answers them out of order (3.4.23)', async () => {
    const be = open();
    try {
      const version = (await be.etcdClient.call('status', {})).version;
      const trusted = await be.supportsRequestProgress();
      if (version.startsWith('3.4.') && Number(version.split('.')[2]) < 31) assert.equal(trusted, false);
      await be.requestProgress();
    } finally {
      await be.close();
    }
  });

  it('requestProgress reports progress on every watch when told to send the requests', async () => {
    const be = new Etcd3Backend({ endpoints: fx.etcd().endpoints, progressRequests: 'always' });
    try {
      const p = prefix();
      const idle = new WatchRecorder(5000);
      const busy = new WatchRecorder(5000);
      const from = (await be.currentRevision()) + 1;
      be.watch(prefixRange(`${p}idle/`), { fromRevision: from }, idle);
      be.watch(prefixRange(`${p}busy/`), { fromRevision: from }, busy);
      const w = await be.create(`${p}busy/k`, buf('v'));
      assert.ok(w.ok);
      await busy.waitForEvents(1);
      await be.requestProgress();
      assert.ok((await idle.waitForProgress(w.revision)) >= w.revision);
      assert.ok((await busy.waitForProgress(w.revision)) >= w.revision);
      // A watch opened after a request is not told about it: its history may not have been sent yet.
      const before = idle.progress.length;
      await be.requestProgress();
      const late = new WatchRecorder(5000);
      be.watch(prefixRange(`${p}busy/`), { fromRevision: w.revision }, late);
      await late.waitForEvents(1);
      await eventually(() => idle.progress.length > before);
      assert.deepEqual(late.progress, []);
    } finally {
      await be.close();
    }
  });

  it('a dead endpoint fails with BackendUnavailableError promptly, and so does its watch', async () => {
    const port = await freePort();
    const be = new Etcd3Backend({ endpoints: [`http://127.0.0.1:${port}`], watchRetryTimeoutMs: 300 });
    try {
      const started = Date.now();
      await assert.rejects(be.get('/x'), BackendUnavailableError);
      await assert.rejects(be.create('/x', buf('v')), BackendUnavailableError);
      assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
      const rec = new WatchRecorder(5000);
      be.watch(prefixRange('/x/'), { fromRevision: 1 }, rec);
      assert.ok((await rec.waitForError()) instanceof BackendUnavailableError);
    } finally {
      await be.close();
    }
  });
});
