// getList without paging, after RunTestList in k8s.io/apiserver/pkg/storage/testing/store_tests.go and
// GetList in pkg/storage/etcd3/store.go.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { storeTest, type SuiteContext, type TestEnv } from './harness.js';
import {
  listRv,
  listTooOld,
  names,
  pick,
  rejectsBadResourceVersion,
  rejectsStatus,
  rejectsTooLarge,
  relabel,
  rvOf,
  seed,
} from './helpers.js';
import { testPredicate } from './predicate.js';
import { pod, type TestObject } from './test-object.js';

/** a created (rv1); a relabelled and b created after it. */
async function history(env: TestEnv): Promise<{ a1: TestObject; a2: TestObject; b: TestObject }> {
  const a1 = await env.store.create(env.key('a'), pod(env.ns, 'a', { labels: { v: '1' } }));
  const a2 = await relabel(env, env.key('a'), { v: '2' });
  const b = await env.store.create(env.key('b'), pod(env.ns, 'b'));
  return { a1, a2, b };
}

async function tooLargeFor(env: TestEnv, match: '' | 'NotOlderThan'): Promise<void> {
  await seed(env, ['a']);
  const before = await env.store.currentResourceVersion();
  const requested = before + 1000;
  const opts = { recursive: true, resourceVersion: String(requested), resourceVersionMatch: match };
  const listed = env.store.getList(env.prefix, opts);
  await rejectsTooLarge(listed, requested, { before, after: () => env.store.currentResourceVersion() });
}

export function registerListTests(ctx: SuiteContext): void {
  describe('getList', () => {
    storeTest(ctx, 'a recursive list returns every object under the prefix sorted by key', async (env) => {
      const seeded = await seed(env, ['c', 'a', 'b', 'a-1']);
      const list = await env.store.getList(env.prefix, { recursive: true });
      assert.deepEqual(names(list.items), ['a', 'a-1', 'b', 'c']);
      for (const item of list.items) assert.deepEqual(item, pick(seeded, item.metadata.name ?? ''));
      assert.equal(list.metadata.continue ?? '', '');
      assert.equal(list.metadata.remainingItemCount, undefined);
    });

    storeTest(ctx, 'the list resourceVersion is the store revision', async (env) => {
      const seeded = await seed(env, ['a', 'b']);
      await env.store.create(`${env.prefix}-other/x`, pod(`${env.ns}-other`, 'x'));
      const before = await env.store.currentResourceVersion();
      const list = await env.store.getList(env.prefix, { recursive: true });
      const after = await env.store.currentResourceVersion();
      assert.ok(
        listRv(list) >= before && listRv(list) <= after,
        `list rv ${listRv(list)} in [${before}, ${after}]`,
      );
      assert.ok(listRv(list) > rvOf(pick(seeded, 'b')));
    });

    storeTest(
      ctx,
      'an empty prefix lists no items, at a non-zero revision even in a fresh store',
      async (env) => {
        const before = await env.store.currentResourceVersion();
        const list = await env.store.getList(env.prefix, { recursive: true });
        assert.deepEqual(list.items, []);
        assert.ok(listRv(list) >= before);
      },
    );

    storeTest(ctx, 'a non-recursive list of one key returns that object only', async (env) => {
      const seeded = await seed(env, ['a', 'ab', 'a/x']);
      const list = await env.store.getList(env.key('a'), { recursive: false });
      assert.deepEqual(list.items, [pick(seeded, 'a')]);
      assert.ok(listRv(list) >= rvOf(pick(seeded, 'a/x')));
    });

    storeTest(ctx, 'a non-recursive list of a missing key returns no items', async (env) => {
      await seed(env, ['ab']);
      const list = await env.store.getList(env.key('a'), {});
      assert.deepEqual(list.items, []);
      assert.ok(listRv(list) > 0);
    });

    storeTest(ctx, 'a recursive list does not reach into a sibling prefix', async (env) => {
      await seed(env, ['x', 'y']);
      await env.store.create(`${env.prefix}b/z`, pod(`${env.ns}b`, 'z'));
      // A raw store also holds a key equal to the prefix itself; it is not inside the prefix.
      if (ctx.opts.rawKeys) await env.store.create(env.prefix, pod(env.ns, env.ns));
      assert.deepEqual(names((await env.store.getList(env.prefix, { recursive: true })).items), ['x', 'y']);
      assert.deepEqual(names((await env.store.getList(`${env.prefix}/`, { recursive: true })).items), [
        'x',
        'y',
      ]);
    });

    storeTest(ctx, 'a label predicate filters the items', async (env) => {
      await seed(env, ['a', 'b', 'c', 'd'], (n) => ({ labels: { even: String(n === 'b' || n === 'd') } }));
      const predicate = testPredicate({ labels: { even: 'true' } });
      const list = await env.store.getList(env.prefix, { recursive: true, predicate });
      assert.deepEqual(names(list.items), ['b', 'd']);
    });

    storeTest(ctx, 'field predicates on spec.nodeName and metadata.name filter the items', async (env) => {
      await seed(env, ['a', 'b', 'c'], (n) => (n === 'c' ? {} : { nodeName: 'node-1' }));
      const onNode = testPredicate({ fields: { 'spec.nodeName': 'node-1' } });
      assert.deepEqual(
        names((await env.store.getList(env.prefix, { recursive: true, predicate: onNode })).items),
        ['a', 'b'],
      );
      const unscheduled = testPredicate({ fields: { 'spec.nodeName': '' } });
      const list = await env.store.getList(env.prefix, { recursive: true, predicate: unscheduled });
      assert.deepEqual(names(list.items), ['c']);
      const byName = testPredicate({ fields: { 'metadata.name': 'b' } });
      assert.deepEqual(
        names((await env.store.getList(env.prefix, { recursive: true, predicate: byName })).items),
        ['b'],
      );
    });

    storeTest(ctx, 'Exact at an older resourceVersion returns the state at that revision', async (env) => {
      const { a1 } = await history(env);
      const opts = {
        recursive: true,
        resourceVersion: String(rvOf(a1)),
        resourceVersionMatch: 'Exact',
      } as const;
      const list = await env.store.getList(env.prefix, opts);
      assert.deepEqual(list.items, [a1]);
      assert.equal(listRv(list), rvOf(a1));
    });

    storeTest(
      ctx,
      'Exact before the first object existed returns an empty list at that revision',
      async (env) => {
        const { a1, b } = await history(env);
        const beforeB = rvOf(b) - 1;
        const opts = {
          recursive: true,
          resourceVersion: String(beforeB),
          resourceVersionMatch: 'Exact',
        } as const;
        const list = await env.store.getList(env.key('b'), { ...opts, recursive: false });
        assert.deepEqual(list.items, []);
        assert.equal(listRv(list), beforeB);
        assert.ok(beforeB >= rvOf(a1));
      },
    );

    storeTest(
      ctx,
      'Exact at a compacted resourceVersion fails with 410 Expired',
      async (env) => {
        const { a1 } = await history(env);
        await env.harness.compact(await env.store.currentResourceVersion());
        const opts = {
          recursive: true,
          resourceVersion: String(rvOf(a1)),
          resourceVersionMatch: 'Exact',
        } as const;
        await rejectsStatus(env.store.getList(env.prefix, opts), {
          code: 410,
          reason: 'Expired',
          message: listTooOld,
        });
      },
      ['compaction'],
    );

    storeTest(ctx, 'NotOlderThan an older resourceVersion returns the current state', async (env) => {
      const { a1, a2, b } = await history(env);
      const opts = {
        recursive: true,
        resourceVersion: String(rvOf(a1)),
        resourceVersionMatch: 'NotOlderThan',
      } as const;
      const list = await env.store.getList(env.prefix, opts);
      assert.ok(listRv(list) >= rvOf(a1));
      if (env.opts.laggingReads) return;
      assert.deepEqual(list.items, [a2, b]);
      assert.ok(listRv(list) >= rvOf(b));
    });

    storeTest(ctx, 'NotOlderThan above the store revision fails with 504 Too large', async (env) => {
      await tooLargeFor(env, 'NotOlderThan');
    });

    storeTest(
      ctx,
      'a legacy resourceVersion above the store revision fails with 504 Too large',
      async (env) => {
        await tooLargeFor(env, '');
      },
    );

    storeTest(ctx, 'resourceVersion "0" returns some state without error', async (env) => {
      const { a2, b } = await history(env);
      for (const match of ['', 'NotOlderThan'] as const) {
        const list = await env.store.getList(env.prefix, {
          recursive: true,
          resourceVersion: '0',
          resourceVersionMatch: match,
        });
        assert.ok(listRv(list) > 0);
        for (const item of list.items) assert.ok(item.metadata.name === 'a' || item.metadata.name === 'b');
        if (!env.opts.laggingReads) assert.deepEqual(list.items, [a2, b]);
      }
    });

    storeTest(ctx, 'a legacy resourceVersion without a limit returns the current state', async (env) => {
      const { a1, a2, b } = await history(env);
      const list = await env.store.getList(env.prefix, {
        recursive: true,
        resourceVersion: String(rvOf(a1)),
      });
      if (env.opts.laggingReads) return;
      assert.deepEqual(list.items, [a2, b]);
    });

    storeTest(ctx, 'a malformed resourceVersion fails with 400 BadRequest', async (env) => {
      await seed(env, ['a']);
      await rejectsBadResourceVersion(
        env.store.getList(env.prefix, { recursive: true, resourceVersion: 'abc' }),
      );
      const exact = { recursive: true, resourceVersion: 'x1', resourceVersionMatch: 'Exact' } as const;
      await rejectsBadResourceVersion(env.store.getList(env.prefix, exact));
    });
  });
}
