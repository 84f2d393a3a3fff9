// Backend contract: get / list / count at revisions, limits, ranges, compaction and future revisions.
import assert from 'node:assert/strict';
import { CompactedError, FutureRevisionError, prefixRange, type Backend, type KeyRange } from '../backend.js';
import { buf, okRevision, plain, withBackend, type SuiteTests } from './suite-context.js';

async function keysOf(b: Backend, range: KeyRange, opts: { revision?: number; limit?: number } = {}) {
  return (await b.list(range, opts)).kvs.map((kv) => kv.key);
}

export const readTests: SuiteTests = {
  'get at a past revision returns the value as it was': (ctx) =>
    withBackend(ctx, async (b, p) => {
      const r0 = okRevision(await b.create(`${p}other`, buf('o')), 'create');
      const r1 = okRevision(await b.create(`${p}k`, buf('v1')), 'create');
      const r2 = okRevision(await b.update(`${p}k`, buf('v2'), { modRevision: r1 }), 'update');
      const r3 = okRevision(await b.delete(`${p}k`, { modRevision: r2 }), 'delete');
      assert.equal((await b.get(`${p}k`, { revision: r0 })).kv, null);
      assert.equal((await b.get(`${p}k`, { revision: r1 })).kv?.value.toString(), 'v1');
      const at2 = await b.get(`${p}k`, { revision: r2 });
      assert.equal(at2.revision, r2);
      assert.deepEqual(plain(at2.kv), { key: `${p}k`, value: 'v2', create: r1, mod: r2 });
      assert.equal((await b.get(`${p}k`, { revision: r3 })).kv, null);
    }),

  'list returns the live keys of a range in key order, at a revision': (ctx) =>
    withBackend(ctx, async (b, p) => {
      const range = prefixRange(`${p}r/`);
      for (const k of ['c', 'a', 'b']) await b.create(`${p}r/${k}`, buf(k));
      const got = await b.get(`${p}r/b`);
      const before = await b.currentRevision();
      await b.delete(`${p}r/b`, { modRevision: got.kv?.modRevision ?? 0 });
      await b.create(`${p}r0`, buf('outside'));
      assert.deepEqual(await keysOf(b, range), [`${p}r/a`, `${p}r/c`]);
      const old = await b.list(range, { revision: before });
      assert.equal(old.revision, before);
      assert.deepEqual(
        old.kvs.map((kv) => [kv.key, kv.value.toString()]),
        [`a`, `b`, `c`].map((k) => [`${p}r/${k}`, k]),
      );
      assert.equal((await b.list(range)).revision, await b.currentRevision());
    }),

  'list with a limit returns that many keys and says whether more remain': (ctx) =>
    withBackend(ctx, async (b, p) => {
      const range = prefixRange(p);
      for (let i = 0; i < 5; i++) await b.create(`${p}k${i}`, buf(String(i)));
      const page = await b.list(range, { limit: 2 });
      assert.deepEqual(
        page.kvs.map((kv) => kv.key),
        [`${p}k0`, `${p}k1`],
      );
      assert.equal(page.more, true);
      const rest = await b.list(
        { start: `${p}k1\0`, end: range.end },
        { limit: 10, revision: page.revision },
      );
      assert.deepEqual(
        rest.kvs.map((kv) => kv.key),
        [`${p}k2`, `${p}k3`, `${p}k4`],
      );
      assert.equal(rest.more, false);
      assert.equal((await b.list(range, { limit: 5 })).more, false);
      assert.equal((await b.list(range)).more, false);
    }),

  'count counts the live keys of a range at a revision': (ctx) =>
    withBackend(ctx, async (b, p) => {
      const range = prefixRange(p);
      const r1 = okRevision(await b.create(`${p}a`, buf('a')), 'create');
      await b.create(`${p}b`, buf('b'));
      const r3 = okRevision(await b.update(`${p}a`, buf('a2'), { modRevision: r1 }), 'update');
      const before = await b.currentRevision();
      await b.delete(`${p}a`, { modRevision: r3 });
      assert.deepEqual(await b.count(range), { revision: await b.currentRevision(), count: 1 });
      assert.deepEqual(await b.count(range, { revision: before }), { revision: before, count: 2 });
      assert.deepEqual(await b.count(range, { revision: r1 }), { revision: r1, count: 1 });
    }),

  'prefix ranges are isolated: /a/ does not see /ab/ or /a0': (ctx) =>
    withBackend(ctx, async (b, p) => {
      for (const k of ['a/1', 'a/2', 'ab/1', 'a0', 'a']) await b.create(`${p}${k}`, buf(k));
      assert.deepEqual(await keysOf(b, prefixRange(`${p}a/`)), [`${p}a/1`, `${p}a/2`]);
      assert.deepEqual(await keysOf(b, prefixRange(`${p}ab/`)), [`${p}ab/1`]);
      assert.equal((await b.count(prefixRange(`${p}a/`))).count, 2);
    }),

  'a single-key range [key, key+"\\0") holds that key only': (ctx) =>
    withBackend(ctx, async (b, p) => {
      for (const k of ['k', 'k0', 'k/x']) await b.create(`${p}${k}`, buf(k));
      assert.deepEqual(await keysOf(b, { start: `${p}k`, end: `${p}k\0` }), [`${p}k`]);
    }),

  'reads at a revision above the current one fail with FutureRevisionError': (ctx) =>
    withBackend(ctx, async (b, p) => {
      await b.create(`${p}k`, buf('v'));
      const future = (await b.currentRevision()) + 1;
      const isFuture = (err: unknown) =>
        err instanceof FutureRevisionError && err.requestedRevision === future;
      await assert.rejects(b.get(`${p}k`, { revision: future }), isFuture);
      await assert.rejects(b.list(prefixRange(p), { revision: future }), isFuture);
      await assert.rejects(b.count(prefixRange(p), { revision: future }), isFuture);
    }),

  'compaction: reads below the compacted revision fail, reads at or above it are whole': (ctx) =>
    withBackend(ctx, async (b, p) => {
      const r1 = okRevision(await b.create(`${p}k`, buf('v1')), 'create');
      const r2 = okRevision(await b.update(`${p}k`, buf('v2'), { modRevision: r1 }), 'update');
      const g = okRevision(await b.create(`${p}gone`, buf('g')), 'create');
      const c = okRevision(await b.delete(`${p}gone`, { modRevision: g }), 'delete');
      const r5 = okRevision(await b.update(`${p}k`, buf('v3'), { modRevision: r2 }), 'update');
      await b.compact(c);
      assert.equal(await b.compactRevision(), c);
      const compacted = (err: unknown) => err instanceof CompactedError && err.compactRevision === c;
      await assert.rejects(b.get(`${p}k`, { revision: c - 1 }), compacted);
      await assert.rejects(b.list(prefixRange(p), { revision: c - 1 }), compacted);
      await assert.rejects(b.count(prefixRange(p), { revision: c - 1 }), compacted);
      assert.deepEqual(plain((await b.get(`${p}k`, { revision: c })).kv), {
        key: `${p}k`,
        value: 'v2',
        create: r1,
        mod: r2,
      });
      assert.deepEqual(await keysOf(b, prefixRange(p), { revision: c }), [`${p}k`]);
      assert.deepEqual(plain((await b.get(`${p}k`)).kv), { key: `${p}k`, value: 'v3', create: r1, mod: r5 });
      assert.equal((await b.get(`${p}gone`)).kv, null);
      const after = await b.create(`${p}gone`, buf('again'));
      assert.ok(after.ok && after.revision > r5, 'revisions keep growing after compaction');
    }),
};
