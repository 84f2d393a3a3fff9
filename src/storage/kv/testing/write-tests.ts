// Backend contract: create / update / delete as compare-and-swap, outcomes as data.
import assert from 'node:assert/strict';
import { buf, okRevision, plain, withBackend, type SuiteTests } from './suite-context.js';

export const writeTests: SuiteTests = {
  'create writes a new key at a new revision': (ctx) =>
    withBackend(ctx, async (b, p) => {
      const before = await b.currentRevision();
      const res = await b.create(`${p}k`, buf('v1'));
      assert.ok(res.ok);
      assert.ok(res.revision > before);
      assert.equal(res.prevKv, null);
      assert.equal(await b.currentRevision(), res.revision);
      const got = await b.get(`${p}k`);
      assert.equal(got.revision, res.revision);
      assert.deepEqual(plain(got.kv), { key: `${p}k`, value: 'v1', create: res.revision, mod: res.revision });
    }),

  'create of an existing key fails with the current value and writes nothing': (ctx) =>
    withBackend(ctx, async (b, p) => {
      const rev = okRevision(await b.create(`${p}k`, buf('v1')), 'create');
      const res = await b.create(`${p}k`, buf('v2'));
      assert.equal(res.ok, false);
      assert.ok(!res.ok);
      assert.ok(res.revision >= rev);
      assert.deepEqual(plain(res.current), { key: `${p}k`, value: 'v1', create: rev, mod: rev });
      assert.equal(await b.currentRevision(), rev);
    }),

  'update succeeds only at the current modRevision and keeps createRevision': (ctx) =>
    withBackend(ctx, async (b, p) => {
      const k = `${p}k`;
      const r1 = okRevision(await b.create(k, buf('v1')), 'create');
      const up = await b.update(k, buf('v2'), { modRevision: r1 });
      assert.ok(up.ok);
      assert.ok(up.revision > r1);
      assert.deepEqual(plain(up.prevKv), { key: k, value: 'v1', create: r1, mod: r1 });
      assert.deepEqual(plain((await b.get(k)).kv), { key: k, value: 'v2', create: r1, mod: up.revision });

      const stale = await b.update(k, buf('v3'), { modRevision: r1 });
      assert.ok(!stale.ok);
      assert.deepEqual(plain(stale.current), { key: k, value: 'v2', create: r1, mod: up.revision });
      const missing = await b.update(`${p}missing`, buf('x'), { modRevision: r1 });
      assert.ok(!missing.ok);
      assert.equal(missing.current, null);
      assert.equal(await b.currentRevision(), up.revision);
    }),

  'delete succeeds only at the current modRevision and leaves the key absent': (ctx) =>
    withBackend(ctx, async (b, p) => {
      const k = `${p}k`;
      const r1 = okRevision(await b.create(k, buf('v1')), 'create');
      const r2 = okRevision(await b.update(k, buf('v2'), { modRevision: r1 }), 'update');
      const stale = await b.delete(k, { modRevision: r1 });
      assert.ok(!stale.ok);
      assert.equal(stale.current?.modRevision, r2);

      const del = await b.delete(k, { modRevision: r2 });
      assert.ok(del.ok);
      assert.ok(del.revision > r2);
      assert.deepEqual(plain(del.prevKv), { key: k, value: 'v2', create: r1, mod: r2 });
      assert.equal((await b.get(k)).kv, null);
      const again = await b.delete(k, { modRevision: r2 });
      assert.ok(!again.ok);
      assert.equal(again.current, null);

      const re = await b.create(k, buf('v3'));
      assert.ok(re.ok);
      assert.equal(re.prevKv, null);
      assert.deepEqual(plain((await b.get(k)).kv), {
        key: k,
        value: 'v3',
        create: re.revision,
        mod: re.revision,
      });
    }),

  'concurrent writes: a failed comparison does not fail the others': (ctx) =>
    withBackend(ctx, async (b, p) => {
      const results = await Promise.all([
        b.create(`${p}a`, buf('first')),
        b.create(`${p}a`, buf('second')),
        b.create(`${p}b`, buf('b')),
        b.update(`${p}c`, buf('c'), { modRevision: 1 }),
        b.create(`${p}d`, buf('d')),
      ]);
      const [a1, a2, bRes, cRes, dRes] = results;
      assert.equal([a1.ok, a2.ok].filter(Boolean).length, 1, 'exactly one create of a wins');
      const [winner, loser] = a1.ok ? [a1, a2] : [a2, a1];
      assert.ok(winner.ok && !loser.ok);
      assert.equal(loser.current?.modRevision, winner.revision);
      assert.ok(bRes.ok && dRes.ok);
      assert.equal(cRes.ok, false);
      const revs = [winner.revision, bRes.revision, dRes.revision];
      assert.equal(new Set(revs).size, 3, 'every successful write has its own revision');
      assert.equal((await b.get(`${p}a`)).kv?.modRevision, winner.revision);
    }),

  'sequential writes get strictly increasing revisions': (ctx) =>
    withBackend(ctx, async (b, p) => {
      let last = await b.currentRevision();
      for (let i = 0; i < 5; i++) {
        const rev = okRevision(await b.create(`${p}k${i}`, buf(String(i))), 'create');
        assert.ok(rev > last);
        last = rev;
      }
      assert.equal(await b.currentRevision(), last);
    }),

  'values round-trip as bytes, including empty and binary values': (ctx) =>
    withBackend(ctx, async (b, p) => {
      const bin = Buffer.from([0, 255, 1, 254, 0]);
      await b.create(`${p}bin`, bin);
      await b.create(`${p}empty`, Buffer.alloc(0));
      assert.deepEqual((await b.get(`${p}bin`)).kv?.value, bin);
      assert.equal((await b.get(`${p}empty`)).kv?.value.length, 0);
    }),
};
