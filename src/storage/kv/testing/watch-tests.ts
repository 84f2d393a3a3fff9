// Backend contract: watch order, replay, prevKv, compaction, progress, cancel, misbehaving callbacks.
import assert from 'node:assert/strict';
import { CompactedError, prefixRange, type KvEvent } from '../backend.js';
import { buf, okRevision, plain, sleep, withBackend, type SuiteTests } from './suite-context.js';
import { WatchRecorder } from './watch-recorder.js';

const brief = (e: KvEvent) => [e.type, e.kv.key, e.kv.modRevision, e.prevKv?.value.toString() ?? null];

export const watchTests: SuiteTests = {
  'watch delivers puts and deletes in order, with prevKv on updates and deletes': (ctx) =>
    withBackend(ctx, async (b, p) => {
      const rec = new WatchRecorder(ctx.timeoutMs);
      const w = b.watch(prefixRange(p), { fromRevision: (await b.currentRevision()) + 1 }, rec);
      const k = `${p}k`;
      const r1 = okRevision(await b.create(k, buf('v1')), 'create');
      const r2 = okRevision(await b.update(k, buf('v2'), { modRevision: r1 }), 'update');
      const r3 = okRevision(await b.delete(k, { modRevision: r2 }), 'delete');
      const events = await rec.waitForEvents(3);
      w.cancel();
      assert.deepEqual(events.map(brief), [
        ['put', k, r1, null],
        ['put', k, r2, 'v1'],
        ['delete', k, r3, 'v2'],
      ]);
      assert.deepEqual(plain(events[1]?.kv ?? null), { key: k, value: 'v2', create: r1, mod: r2 });
      assert.deepEqual(plain(events[1]?.prevKv ?? null), { key: k, value: 'v1', create: r1, mod: r1 });
      assert.equal(events[2]?.kv.value.length, 0);
      assert.equal(events[2].prevKv?.modRevision, r2);
    }),

  'watch sees concurrent writes in revision order, with no gap or repeat across batches': (ctx) =>
    withBackend(ctx, async (b, p) => {
      const rec = new WatchRecorder(ctx.timeoutMs);
      const w = b.watch(prefixRange(p), { fromRevision: (await b.currentRevision()) + 1 }, rec);
      const revs: number[] = [];
      for (let round = 0; round < 3; round++) {
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) => b.create(`${p}r${round}-${i}`, buf(`${round}.${i}`))),
        );
        for (const r of results) revs.push(okRevision(r, 'create'));
      }
      await rec.waitForEvents(revs.length);
      await sleep(20);
      w.cancel();
      rec.assertOrdered();
      assert.deepEqual(
        rec.revisions,
        [...revs].sort((x, y) => x - y),
      );
    }),

  'watch from an old revision replays history, then continues live without gap or repeat': (ctx) =>
    withBackend(ctx, async (b, p) => {
      const revs: number[] = [];
      const r1 = okRevision(await b.create(`${p}a`, buf('a1')), 'create');
      revs.push(r1, okRevision(await b.create(`${p}b`, buf('b1')), 'create'));
      revs.push(okRevision(await b.update(`${p}a`, buf('a2'), { modRevision: r1 }), 'update'));
      await b.create(`${p.slice(0, -1)}-outside`, buf('x'));
      const rec = new WatchRecorder(ctx.timeoutMs);
      const w = b.watch(prefixRange(p), { fromRevision: revs[1] ?? 0 }, rec);
      const live = Promise.all([b.create(`${p}c`, buf('c')), b.create(`${p}d`, buf('d'))]);
      for (const r of await live) revs.push(okRevision(r, 'create'));
      await rec.waitForEvents(4);
      await sleep(20);
      w.cancel();
      rec.assertOrdered();
      assert.deepEqual(
        rec.revisions,
        revs.slice(1).sort((x, y) => x - y),
      );
      assert.deepEqual(rec.events[1]?.prevKv?.value.toString(), 'a1');
    }),

  'watch from a compacted revision ends with CompactedError; above it, it replays': (ctx) =>
    withBackend(ctx, async (b, p) => {
      const r1 = okRevision(await b.create(`${p}k`, buf('v1')), 'create');
      const r2 = okRevision(await b.update(`${p}k`, buf('v2'), { modRevision: r1 }), 'update');
      const r3 = okRevision(await b.update(`${p}k`, buf('v3'), { modRevision: r2 }), 'update');
      const r4 = okRevision(await b.delete(`${p}k`, { modRevision: r3 }), 'delete');
      await b.compact(r3);
      const old = new WatchRecorder(ctx.timeoutMs);
      b.watch(prefixRange(p), { fromRevision: r2 }, old);
      const err = await old.waitForError();
      assert.ok(err instanceof CompactedError, `got ${err.name}: ${err.message}`);
      assert.equal(err.compactRevision, r3);
      assert.equal(old.events.length, 0);

      const rec = new WatchRecorder(ctx.timeoutMs);
      const w = b.watch(prefixRange(p), { fromRevision: r3 + 1 }, rec);
      const events = await rec.waitForEvents(1);
      w.cancel();
      assert.deepEqual(events.map(brief), [['delete', `${p}k`, r4, 'v3']]);
    }),

  'interruptWatches ends every watch with the error; the backend goes on and new watches work': (ctx) =>
    withBackend(ctx, async (b, p) => {
      if (b.interruptWatches === undefined) return;
      const rec = new WatchRecorder(ctx.timeoutMs);
      b.watch(prefixRange(p), { fromRevision: (await b.currentRevision()) + 1 }, rec);
      const r1 = okRevision(await b.create(`${p}a`, buf('a')), 'create');
      await rec.waitForEvents(1);
      b.interruptWatches(new CompactedError(r1, r1));
      const err = await rec.waitForError();
      assert.ok(err instanceof CompactedError, `got ${err.name}: ${err.message}`);
      const next = new WatchRecorder(ctx.timeoutMs);
      const w = b.watch(prefixRange(p), { fromRevision: r1 + 1 }, next);
      const r2 = okRevision(await b.create(`${p}b`, buf('b')), 'create');
      const events = await next.waitForEvents(1);
      w.cancel();
      assert.deepEqual(events.map(brief), [['put', `${p}b`, r2, null]]);
      assert.equal(rec.events.length, 1, 'nothing more reached the interrupted watch');
    }),

  'cancel stops delivery': (ctx) =>
    withBackend(ctx, async (b, p) => {
      const rec = new WatchRecorder(ctx.timeoutMs);
      const w = b.watch(prefixRange(p), { fromRevision: (await b.currentRevision()) + 1 }, rec);
      await b.create(`${p}a`, buf('a'));
      await rec.waitForEvents(1);
      w.cancel();
      w.cancel();
      await b.create(`${p}b`, buf('b'));
      await rec.assertQuietFor(50);
      assert.equal(rec.events.length, 1);
      assert.equal(rec.error, null);
    }),

  'requestProgress reports a revision covering every event already delivered': (ctx) =>
    withBackend(ctx, async (b, p) => {
      const rec = new WatchRecorder(ctx.timeoutMs);
      const w = b.watch(
        prefixRange(p),
        { fromRevision: (await b.currentRevision()) + 1, progressNotify: true },
        rec,
      );
      const rev = okRevision(await b.create(`${p}a`, buf('a')), 'create');
      await b.requestProgress();
      const reported = await rec.waitForProgress(rev);
      w.cancel();
      const at = rec.deliveries.findIndex((d) => d.kind === 'progress' && d.revision === reported);
      const eventAt = rec.deliveries.findIndex((d) => d.kind === 'events');
      assert.ok(eventAt >= 0 && eventAt < at, 'the event came before the progress report covering it');
    }),

  'a watcher whose callback throws breaks neither other watchers nor writes': (ctx) =>
    withBackend(ctx, async (b, p) => {
      const from = (await b.currentRevision()) + 1;
      const bad = new WatchRecorder(ctx.timeoutMs);
      const thrower = {
        onEvents: () => {
          throw new Error('consumer bug');
        },
        onProgress: (r: number) => {
          bad.onProgress(r);
        },
        onError: (e: Error) => {
          bad.onError(e);
        },
      };
      const good = new WatchRecorder(ctx.timeoutMs);
      const w1 = b.watch(prefixRange(p), { fromRevision: from }, thrower);
      const w2 = b.watch(prefixRange(p), { fromRevision: from }, good);
      const r1 = await b.create(`${p}a`, buf('a'));
      const r2 = await b.create(`${p}b`, buf('b'));
      assert.ok(r1.ok && r2.ok);
      await good.waitForEvents(2);
      w1.cancel();
      w2.cancel();
      assert.deepEqual(good.revisions, [r1.revision, r2.revision]);
    }),

  'a key written with a TTL is readable, then expires with a delete event': (ctx) =>
    withBackend(ctx, async (b, p) => {
      const rec = new WatchRecorder(ctx.ttlSeconds * 1000 + ctx.timeoutMs);
      const w = b.watch(prefixRange(p), { fromRevision: (await b.currentRevision()) + 1 }, rec);
      const rev = okRevision(
        await b.create(`${p}ttl`, buf('short-lived'), { ttl: ctx.ttlSeconds }),
        'create',
      );
      await b.create(`${p}kept`, buf('stays'));
      assert.equal((await b.get(`${p}ttl`)).kv?.value.toString(), 'short-lived');
      const events = await rec.waitForEvents(3);
      w.cancel();
      const del = events.find((e) => e.type === 'delete');
      assert.ok(del !== undefined);
      assert.equal(del.kv.key, `${p}ttl`);
      assert.ok(del.kv.modRevision > rev);
      assert.equal(del.prevKv?.value.toString(), 'short-lived');
      assert.equal((await b.get(`${p}ttl`)).kv, null);
      assert.equal((await b.get(`${p}kept`)).kv?.value.toString(), 'stays');
    }),
};
