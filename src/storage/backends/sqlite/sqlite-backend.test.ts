import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { prefixRange } from '../../kv/backend.js';
import { runBackendSuite } from '../../kv/testing/backend-suite.js';
import type { SqliteBackendOptions } from './options.js';
import { SqliteBackend } from './sqlite-backend.js';
import { ensureSchema } from './schema.js';
import { historySql, listSql } from './statements.js';
import { tempDbPath } from './testdata/temp-dirs.js';

const fast: Omit<SqliteBackendOptions, 'path'> = {
  ttlSweepIntervalMs: 50,
  progressNotifyIntervalMs: 100,
  compaction: { intervalMs: 0 },
};

runBackendSuite('sqlite file', () => SqliteBackend.open({ ...fast, path: tempDbPath() }));
runBackendSuite('sqlite memory', () => SqliteBackend.open({ ...fast, path: ':memory:' }));

describe('SqliteBackend', () => {
  it('reports its type', async () => {
    const file = await SqliteBackend.open({ ...fast, path: tempDbPath() });
    const mem = await SqliteBackend.open({ ...fast, path: ':memory:' });
    assert.equal(file.type, 'sqlite');
    assert.equal(mem.type, 'memory');
    await Promise.all([file.close(), mem.close()]);
  });

  it('keeps data, revision and compact revision across a reopen; never reuses a revision', async () => {
    const path = tempDbPath();
    const b1 = await SqliteBackend.open({ ...fast, path });
    const r1 = await b1.create('/k/a', Buffer.from('a'));
    const r2 = await b1.create('/k/b', Buffer.from('b'));
    assert.ok(r1.ok && r2.ok);
    const del = await b1.delete('/k/b', { modRevision: r2.revision });
    assert.ok(del.ok);
    // Compacting at the tombstone removes the newest row of the table.
    await b1.compact(del.revision);
    await b1.close();

    const b2 = await SqliteBackend.open({ ...fast, path });
    assert.equal(await b2.currentRevision(), del.revision);
    assert.equal(await b2.compactRevision(), del.revision);
    assert.equal((await b2.get('/k/a')).kv?.value.toString(), 'a');
    assert.equal((await b2.get('/k/b')).kv, null);
    const next = await b2.create('/k/c', Buffer.from('c'));
    assert.ok(next.ok);
    assert.equal(next.revision, del.revision + 1);
    await b2.close();
  });
});

describe('SqliteBackend writes and queries', () => {
  it('commits the writes of one event-loop turn in one transaction', async () => {
    const b = await SqliteBackend.open({ ...fast, path: tempDbPath() });
    const before = b.stats;
    const results = await Promise.all(
      Array.from({ length: 15 }, (_, i) => b.create(`/g/${i}`, Buffer.from('v'))),
    );
    assert.ok(results.every((r) => r.ok));
    assert.equal(b.stats.commits - before.commits, 1);
    assert.equal(b.stats.writes - before.writes, 15);
    assert.equal((await b.count(prefixRange('/g/'))).count, 15);
    await b.close();
  });

  it('commits a start’s first writes on this thread while the writer boots, then hands over in order', async () => {
    const path = tempDbPath();
    const b = await SqliteBackend.open({ ...fast, path });
    const early = await Promise.all(
      Array.from({ length: 5 }, (_, i) => b.create(`/h/${i}`, Buffer.from('e'))),
    );
    await b.writerStarted();
    const late = await Promise.all(
      Array.from({ length: 5 }, (_, i) => b.create(`/h/${i + 5}`, Buffer.from('l'))),
    );
    const revisions = [...early, ...late].map((r) => r.revision);
    assert.ok([...early, ...late].every((r) => r.ok));
    assert.deepEqual(
      revisions,
      revisions.map((_, i) => (revisions[0] ?? 0) + i),
      'one sequence across the hand-over',
    );
    const stored = await Promise.all(revisions.map((_, i) => b.get(`/h/${i}`)));
    assert.deepEqual(
      stored.map((g) => g.kv?.modRevision),
      revisions,
    );
    await b.close();
    const again = await SqliteBackend.open({ ...fast, path });
    assert.equal((await again.count(prefixRange('/h/'))).count, 10);
    assert.equal(await again.currentRevision(), revisions.at(-1));
    await again.close();
  });

  it('sends an idle writer 16 writes without waiting for the turn to end; the rest follow in one', async () => {
    const b = await SqliteBackend.open({ ...fast, path: tempDbPath() });
    await b.writerStarted();
    const before = b.stats;
    const results = Array.from({ length: 100 }, (_, i) => b.create(`/g/${i}`, Buffer.from('v')));
    // The first sixteen are on their way before this turn ends.
    await Promise.all(results.slice(0, 16));
    assert.equal(b.stats.commits - before.commits, 1);
    assert.equal(b.stats.writes - before.writes, 16);
    const all = await Promise.all(results);
    assert.ok(all.every((r) => r.ok));
    assert.deepEqual(
      all.map((r) => r.revision),
      all.map((_, i) => (all[0]?.revision ?? 0) + i),
      'revisions in the order the writes were issued',
    );
    assert.equal(b.stats.commits - before.commits, 2);
    assert.equal(b.stats.writes - before.writes, 100);
    assert.equal((await b.count(prefixRange('/g/'))).count, 100);
    await b.close();
  });

  it('stores each value of a batch as its own, and leaves the callers theirs', async () => {
    const b = await SqliteBackend.open({ ...fast, path: tempDbPath() });
    await b.writerStarted();
    const gone = await b.create('/p/gone', Buffer.from('x'));
    assert.ok(gone.ok);
    // Views into one larger buffer (as Node's pool hands out), of several sizes, an empty one, and
    // a delete among them: all cross in one batch.
    const pool = Buffer.from('a'.repeat(10) + 'b'.repeat(20_000) + 'c');
    const values = [pool.subarray(0, 10), pool.subarray(10, 20_010), Buffer.alloc(0), pool.subarray(20_010)];
    // And a value that is all of its memory (crosses as a clone, not a moved copy).
    const whole = Buffer.alloc(9_000, 'w');
    const before = b.stats;
    const [a, big, empty, del, c, w] = await Promise.all([
      b.create('/p/a', values[0] as Buffer),
      b.create('/p/big', values[1] as Buffer),
      b.create('/p/empty', values[2] as Buffer),
      b.delete('/p/gone', { modRevision: gone.revision }),
      b.create('/p/c', values[3] as Buffer),
      b.create('/p/whole', whole),
    ]);
    assert.equal(b.stats.commits - before.commits, 1);
    assert.ok(a.ok && big.ok && empty.ok && del.ok && c.ok && w.ok);
    assert.equal(pool.length, 20_011, 'the caller keeps its buffer');
    assert.equal(whole.toString(), 'w'.repeat(9_000), 'the caller keeps its buffer');
    const read = async (key: string) => (await b.get(key)).kv?.value.toString();
    assert.equal(await read('/p/a'), 'a'.repeat(10));
    assert.equal(await read('/p/big'), 'b'.repeat(20_000));
    assert.equal(await read('/p/empty'), '');
    assert.equal(await read('/p/c'), 'c');
    assert.equal(await read('/p/whole'), 'w'.repeat(9_000));
    assert.equal(await read('/p/gone'), undefined);
    await b.close();
  });

  it('lists by walking the (name, id) index and replays by rowid: no temp b-tree sort', () => {
    const db = new Database(':memory:');
    ensureSchema(db);
    const plan = (sql: string) =>
      db
        .prepare<[object], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
        .all({ start: '/a/', end: '/a0', rev: 1, limit: -1, from: 1, to: 9 })
        .map((r) => r.detail)
        .join(' | ');
    for (const bounded of [false, true]) {
      const list = plan(listSql(bounded));
      assert.doesNotMatch(list, /TEMP B-TREE/, list);
      assert.match(list, /COVERING INDEX kv_log_name_id/, list);
      const history = plan(historySql(bounded));
      assert.doesNotMatch(history, /TEMP B-TREE/, history);
      assert.match(history, /SEARCH l USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/, history);
    }
    db.close();
  });

  it('lists keys holding a NUL-terminated single-key range end', async () => {
    const b = await SqliteBackend.open({ ...fast, path: ':memory:' });
    await b.create('/n/k', Buffer.from('1'));
    await b.create('/n/k\0x', Buffer.from('2'));
    await b.create('/n/k0', Buffer.from('3'));
    const res = await b.list({ start: '/n/k', end: '/n/k\0' });
    assert.deepEqual(
      res.kvs.map((kv) => kv.key),
      ['/n/k'],
    );
    await b.close();
  });
});
