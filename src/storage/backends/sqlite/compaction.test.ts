// Under steady updates the built-in compactor keeps the database bounded without an operator.
//
// The workload: 10,000 updates to 10 keys with 1 KiB values (about 10 MiB of history; with no
// compaction the file measured ~18 MiB). Retaining 100 revisions, measured on the 2-core CI machine
// under load: database + WAL peaked at 2.0–5.8 MiB during the run (the WAL alone reaches ~4 MiB before
// SQLite's 1000-page auto-checkpoint recycles it) and settled at 0.5–2.0 MiB once the compactor had run.
// Bounds, with margin: 8 MiB at any time, and 3 MiB settled: the retained rows and indexes (~0.3 MiB),
// up to 1 MiB of free pages the compactor leaves for reuse, and a WAL under the 1 MiB the compactor
// truncates at.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { CompactedError } from '../../kv/backend.js';
import { eventually } from '../../kv/testing/suite-context.js';
import { SqliteBackend } from './sqlite-backend.js';
import { tempDbPath } from './testdata/temp-dirs.js';

const MiB = 1024 * 1024;
const peakBound = 8 * MiB;
const settledBound = 3 * MiB;

describe('built-in compaction', () => {
  it('keeps file + WAL bounded under 10,000 updates to 10 keys', { timeout: 40_000 }, async (t) => {
    const b = await SqliteBackend.open({
      path: tempDbPath(),
      compaction: { minRetainRevisions: 100, minRetainMs: 0, intervalMs: 50 },
    });
    const keys = Array.from({ length: 10 }, (_, i) => `/registry/configmaps/default/cm-${i}`);
    const revs = new Map<string, number>();
    let peak = 0;
    for (let round = 0; round < 1000; round++) {
      const results = await Promise.all(
        keys.map((k) => {
          const value = Buffer.alloc(1024, round % 256);
          const rev = revs.get(k);
          return rev === undefined ? b.create(k, value) : b.update(k, value, { modRevision: rev });
        }),
      );
      results.forEach((r, i) => {
        assert.ok(r.ok);
        revs.set(keys[i] ?? '', r.revision);
      });
      if (round % 10 === 0) peak = Math.max(peak, await b.size());
    }
    assert.ok(peak < peakBound, `peak size ${peak} bytes exceeds ${peakBound}`);
    let settled = 0;
    await eventually('the compactor to settle the file', 15_000, async () => {
      settled = await b.size();
      return settled < settledBound && (await b.compactRevision()) >= 9_900;
    });

    t.diagnostic(`peak ${peak} bytes, settled ${settled} bytes`);
    for (const k of keys) assert.equal((await b.get(k)).kv?.value[0], 999 % 256);
    const compacted = await b.compactRevision();
    await assert.rejects(b.get(keys[0] ?? '', { revision: compacted - 1 }), CompactedError);
    await b.close();
  });
});

/** A file backend whose key `/k` went through `values` (a create, then updates): their revisions. */
async function fileWithHistory(
  values: readonly string[],
): Promise<{ path: string; b: SqliteBackend; revs: number[] }> {
  const path = tempDbPath();
  const b = await SqliteBackend.open({ path, compaction: { intervalMs: 0 } });
  // The cases are about the writer thread's connection: its statements prepared, its locks taken.
  await b.writerStarted();
  const revs: number[] = [];
  for (const v of values) {
    const last = revs[revs.length - 1];
    const r =
      last === undefined
        ? await b.create('/k', Buffer.from(v))
        : await b.update('/k', Buffer.from(v), { modRevision: last });
    assert.ok(r.ok);
    revs.push(r.revision);
  }
  return { path, b, revs };
}

/** Another connection to the file, holding its write lock until released. */
function holdWriteLock(path: string): { release: () => void } {
  const other = new Database(path);
  other.exec('BEGIN IMMEDIATE');
  return {
    release: () => {
      other.exec('COMMIT');
      other.close();
    },
  };
}

describe('compaction runs where the writes are committed', () => {
  it('waits for the write lock off the event loop', { timeout: 20_000 }, async () => {
    const { path, b, revs } = await fileWithHistory(['v0', 'v1', 'v2', 'v3', 'v4']);
    const rev = revs[revs.length - 1] ?? 0;
    // Another connection holds the write lock; this thread releases it on its next turn, which only
    // comes if the compaction does not wait for the lock here.
    const lock = holdWriteLock(path);
    const released = new Promise<void>((resolve) => {
      setImmediate(() => {
        lock.release();
        resolve();
      });
    });
    await b.compact(rev);
    await released;
    assert.equal(await b.compactRevision(), rev);
    assert.equal((await b.get('/k')).kv?.value.toString(), 'v4');
    await assert.rejects(b.get('/k', { revision: rev - 1 }), CompactedError);
    await b.close();
  });

  it('refuses reads of the revisions being compacted before the writer thread answers', async () => {
    const { path, b, revs } = await fileWithHistory(['old', 'new']);
    const [first = 0, second = 0] = revs;
    // Held by another connection's write lock, the chunk waits in the writer thread; once released,
    // this thread waits (without yielding) until the chunk committed, then reads before it has
    // taken the writer's answer.
    const lock = holdWriteLock(path);
    const compacting = b.compact(second);
    await new Promise((resolve) => setImmediate(resolve));
    lock.release();
    const reader = new Database(path, { readonly: true });
    const compacted = reader
      .prepare<[], number>("SELECT value FROM meta WHERE key = 'compact_revision'")
      .pluck();
    while ((compacted.get() ?? 0) < second) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    await assert.rejects(b.get('/k', { revision: first }), CompactedError);
    await compacting;
    reader.close();
    assert.equal((await b.get('/k')).kv?.value.toString(), 'new');
    await b.close();
  });

  it('in memory, compacts a chunk a turn of the event loop', async () => {
    const b = await SqliteBackend.open({ path: ':memory:', compaction: { intervalMs: 0 } });
    let rev = 0;
    for (let i = 0; i < 2_500; i++) {
      const r = await b.create(`/k/${i}`, Buffer.from('v'));
      assert.ok(r.ok);
      rev = r.revision;
    }
    let turns = 0;
    const tick = (): void => {
      turns++;
      if (!done) setImmediate(tick);
    };
    let done = false;
    setImmediate(tick);
    await b.compact(rev);
    done = true;
    // Three chunks of at most 1,000 revisions, each in a turn after the one before.
    assert.ok(turns >= 3, `the loop turned ${turns} times during the compaction`);
    assert.equal(await b.compactRevision(), rev);
    await b.close();
  });

  it('fails a compaction the writer cannot apply with the backend fault, and keeps serving', async () => {
    const { path, b, revs } = await fileWithHistory(['v']);
    // The meta table gone: the compaction's transaction fails and rolls back.
    const other = new Database(path);
    other.exec('DROP TABLE meta');
    other.close();
    await assert.rejects(b.compact(revs[0] ?? 0), (err: Error) => /compact/.test(err.message));
    assert.equal(await b.compactRevision(), 0);
    assert.equal((await b.get('/k')).kv?.value.toString(), 'v');
    await b.close();
  });
});
