// Faults: a member restart and a member crash in a 3-member cluster. Watches resume from the
// revision after the last one they delivered, with nothing lost or repeated.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { BackendUnavailableError, prefixRange, type WriteResult } from '../../kv/backend.js';
import { WatchRecorder } from '../../kv/testing/watch-recorder.js';
import { Etcd3Backend } from './etcd-backend.js';
import { requireEtcd, startEtcd, startEtcdCluster } from './testing/etcd-process.js';

/** Retries a write while the cluster elects a leader (etcd answers Unavailable meanwhile). */
async function retrying(write: () => Promise<WriteResult>): Promise<WriteResult> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      return await write();
    } catch (err) {
      if (!(err instanceof BackendUnavailableError) || Date.now() > deadline) throw err;
      await sleep(100);
    }
  }
}

it('a watch survives an etcd restart and resumes where it stopped', { timeout: 30_000 }, async (t) => {
  if (!requireEtcd(t)) return;
  const etcd = await startEtcd();
  const be = new Etcd3Backend({ endpoints: etcd.endpoints, requestTimeoutMs: 3000 });
  try {
    const rec = new WatchRecorder(10_000);
    be.watch(prefixRange('/restart/'), { fromRevision: (await be.currentRevision()) + 1 }, rec);
    const first = await be.create('/restart/a', Buffer.from('a'));
    await rec.waitForEvents(1);
    const member = etcd.members[0];
    assert.ok(member !== undefined);
    await member.restart();
    // Written by another client before our watch stream is back: must still arrive, once.
    const other = new Etcd3Backend({ endpoints: etcd.endpoints });
    const second = await retrying(() => other.create('/restart/b', Buffer.from('b')));
    await other.close();
    const third = await retrying(() => be.create('/restart/c', Buffer.from('c')));
    await rec.waitForEvents(3);
    await sleep(50);
    assert.equal(rec.error, null);
    assert.deepEqual(rec.revisions, [first.revision, second.revision, third.revision]);
  } finally {
    await be.close();
    await etcd.stop();
  }
});

it(
  'in a 3-member cluster, losing the member in use moves reads, writes and watches to another',
  { timeout: 45_000 },
  async (t) => {
    if (!requireEtcd(t)) return;
    const cluster = await startEtcdCluster({ size: 3 });
    const be = new Etcd3Backend({ endpoints: cluster.endpoints, requestTimeoutMs: 3000 });
    try {
      assert.equal(cluster.members.length, 3);
      const rec = new WatchRecorder(15_000);
      be.watch(prefixRange('/failover/'), { fromRevision: (await be.currentRevision()) + 1 }, rec);
      const revs = [(await retrying(() => be.create('/failover/1', Buffer.from('1')))).revision];
      await rec.waitForEvents(1);
      // The channel walks the endpoints in order, so it is talking to the first member.
      await cluster.members[0]?.kill();
      revs.push((await retrying(() => be.create('/failover/2', Buffer.from('2')))).revision);
      revs.push((await retrying(() => be.create('/failover/3', Buffer.from('3')))).revision);
      assert.equal((await be.get('/failover/3')).kv?.value.toString(), '3');
      await rec.waitForEvents(3);
      await sleep(50);
      assert.equal(rec.error, null);
      assert.deepEqual(rec.revisions, revs);
    } finally {
      await be.close();
      await cluster.stop();
    }
  },
);
