// SQLite-specific watch behaviour: long replays in windows with live writes meanwhile, compaction
// overtaking a replay, periodic progress, and a throwing callback ending only its own watch.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CompactedError, prefixRange } from '../../kv/backend.js';
import { eventually } from '../../kv/testing/suite-context.js';
import { WatchRecorder } from '../../kv/testing/watch-recorder.js';
import { SqliteBackend } from './sqlite-backend.js';

async function filled(n: number): Promise<{ b: SqliteBackend; revs: number[] }> {
  const b = await SqliteBackend.open({
    path: ':memory:',
    compaction: { intervalMs: 0 },
    progressNotifyIntervalMs: 20,
  });
  const revs: number[] = [];
  for (let i = 0; i < n; i += 500) {
    const batch = Array.from({ length: Math.min(500, n - i) }, (_, j) =>
      b.create(`/h/${i + j}`, Buffer.from('v')),
    );
    for (const r of await Promise.all(batch)) revs.push(r.revision);
  }
  return { b, revs };
}

describe('sqlite watch replay', () => {
  it('replays a long history in windows while live writes continue, with no gap or repeat', async () => {
    const { b, revs } = await filled(3_500);
    const rec = new WatchRecorder(10_000);
    const w = b.watch(prefixRange('/h/'), { fromRevision: 1 }, rec);
    // These commit while the replay is still going (it yields between windows of 1000 revisions).
    const live = await Promise.all(
      Array.from({ length: 50 }, (_, i) => b.create(`/h/live-${i}`, Buffer.from('l'))),
    );
    for (const r of live) revs.push(r.revision);
    await rec.waitForEvents(revs.length);
    await new Promise((resolve) => setTimeout(resolve, 20));
    w.cancel();
    rec.assertOrdered();
    assert.deepEqual(rec.revisions, revs);
    await b.close();
  });

  it('a compaction overtaking a replay ends the watch with CompactedError', async () => {
    const { b } = await filled(3_500);
    const rec = new WatchRecorder(5_000);
    b.watch(prefixRange('/h/'), { fromRevision: 1 }, rec);
    await b.compact(3_000);
    const err = await rec.waitForError();
    assert.ok(err instanceof CompactedError, err.message);
    rec.assertOrdered();
    assert.ok(rec.revisions.length < 3_500);
    await b.close();
  });
});

describe('sqlite watch delivery', () => {
  it('progressNotify watches hear the current revision periodically, after its events', async () => {
    const { b, revs } = await filled(10);
    const last = revs[9] ?? 0;
    const rec = new WatchRecorder(5_000);
    const w = b.watch(prefixRange('/h/'), { fromRevision: revs[4] ?? 0, progressNotify: true }, rec);
    const quiet = new WatchRecorder(5_000);
    const w2 = b.watch(prefixRange('/h/'), { fromRevision: last + 1 }, quiet);
    assert.equal(await rec.waitForProgress(last), last);
    const first = rec.deliveries.findIndex((d) => d.kind === 'progress');
    assert.deepEqual(rec.revisions, revs.slice(4));
    assert.ok(rec.deliveries.slice(0, first).every((d) => d.kind === 'events'));
    await eventually('a second periodic progress report', 5_000, () => rec.progress.length >= 2);
    assert.equal(quiet.progress.length, 0, 'only watches that asked get periodic progress');
    w.cancel();
    w2.cancel();
    await b.close();
  });

  it('a throwing callback ends its own watch with onError carrying the cause', async () => {
    const b = await SqliteBackend.open({ path: ':memory:', compaction: { intervalMs: 0 } });
    const errors: Error[] = [];
    const bug = new Error('consumer bug');
    b.watch(
      prefixRange('/t/'),
      { fromRevision: 1 },
      {
        onEvents: () => {
          throw bug;
        },
        onProgress: () => undefined,
        onError: (err) => errors.push(err),
      },
    );
    await b.create('/t/a', Buffer.from('a'));
    await b.create('/t/b', Buffer.from('b'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(errors.length, 1);
    assert.equal(errors[0]?.cause, bug);
    assert.equal(b.stats.watchers, 0);
    await b.close();
  });
});
