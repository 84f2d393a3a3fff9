// getList with limit and continue, after RunTestListContinuation*, RunTestConsistentList and
// RunTestListInconsistentContinuation in k8s.io/apiserver/pkg/storage/testing/store_tests.go.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { KubeList } from '../../api/meta.js';
import type { ListOptions } from '../interfaces.js';
import { storeTest, type SuiteContext, type TestEnv } from './harness.js';
import {
  decodeContinue,
  encodeContinue,
  inconsistentContinue,
  listRv,
  names,
  pick,
  relabel,
  rejectsStatus,
  rvOf,
  seed,
} from './helpers.js';
import { testPredicate } from './predicate.js';
import { pod, type TestObject } from './test-object.js';

const letters = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];

/**
 * Lists page after page until no continue token is returned. Only the first page carries `opts`'
 * resourceVersion and continue; later pages carry the limit, predicate and the previous page's token.
 */
async function allPages(env: TestEnv, opts: ListOptions<TestObject>): Promise<KubeList<TestObject>[]> {
  const pages = [await env.store.getList(env.prefix, { ...opts, recursive: true })];
  const { limit, predicate } = opts;
  for (let page = pages[0]!; (page.metadata.continue ?? '') !== ''; pages.push(page)) {
    assert.ok(pages.length <= 50, 'too many pages');
    page = await env.store.getList(env.prefix, {
      recursive: true,
      continue: page.metadata.continue ?? '',
      ...(limit === undefined ? {} : { limit }),
      ...(predicate === undefined ? {} : { predicate }),
    });
  }
  return pages;
}

function token(list: KubeList<TestObject>): string {
  const value = list.metadata.continue ?? '';
  assert.notEqual(value, '', 'expected a continue token');
  return value;
}

export function registerPagingTests(ctx: SuiteContext): void {
  describe('getList paging', () => {
    storeTest(ctx, 'limit and continue return every object once, in order, at one revision', async (env) => {
      await seed(env, ['g', 'c', 'a', 'e', 'b', 'f', 'd']);
      const pages = await allPages(env, { limit: 3 });
      assert.deepEqual(
        pages.map((p) => names(p.items)),
        [['a', 'b', 'c'], ['d', 'e', 'f'], ['g']],
      );
      assert.deepEqual(
        pages.map((p) => p.metadata.remainingItemCount),
        [4, 1, undefined],
      );
      const first = pages[0]!;
      for (const page of pages) assert.equal(page.metadata.resourceVersion, first.metadata.resourceVersion);
    });

    storeTest(
      ctx,
      'a limit above the item count returns everything without a continue token',
      async (env) => {
        const seeded = await seed(env, ['a', 'b']);
        const list = await env.store.getList(env.prefix, { recursive: true, limit: 5 });
        assert.deepEqual(list.items, [pick(seeded, 'a'), pick(seeded, 'b')]);
        assert.equal(list.metadata.continue ?? '', '');
        assert.equal(list.metadata.remainingItemCount, undefined);
      },
    );

    storeTest(ctx, 'remainingItemCount is left out when a predicate is set', async (env) => {
      await seed(env, letters, () => ({ labels: { all: 'yes' } }));
      const predicate = testPredicate({ labels: { all: 'yes' } });
      const pages = await allPages(env, { limit: 3, predicate });
      assert.deepEqual(
        pages.map((p) => names(p.items)),
        [['a', 'b', 'c'], ['d', 'e', 'f'], ['g']],
      );
      for (const page of pages) assert.equal(page.metadata.remainingItemCount, undefined);
    });

    storeTest(ctx, 'a selective predicate still fills every page but the last', async (env) => {
      const all = Array.from({ length: 14 }, (_, i) => `p${String(i).padStart(2, '0')}`);
      await seed(env, all, (n) => ({ labels: { pick: String(Number(n.slice(1)) % 3 === 0) } }));
      const pages = await allPages(env, { limit: 2, predicate: testPredicate({ labels: { pick: 'true' } }) });
      assert.deepEqual(
        pages.flatMap((p) => names(p.items)),
        ['p00', 'p03', 'p06', 'p09', 'p12'],
      );
      for (const page of pages.slice(0, -1)) assert.equal(page.items.length, 2);
    });

    storeTest(ctx, 'later pages show the first page revision despite concurrent writes', async (env) => {
      const seeded = await seed(env, ['a', 'b', 'c', 'd', 'e', 'f']);
      const first = await env.store.getList(env.prefix, { recursive: true, limit: 2 });
      await relabel(env, env.key('c'), { changed: 'yes' });
      await env.store.delete(env.key('d'));
      await env.store.create(env.key('cc'), pod(env.ns, 'cc'));
      const rest = await allPages(env, { limit: 2, continue: token(first) });
      assert.deepEqual(
        rest.flatMap((p) => p.items),
        ['c', 'd', 'e', 'f'].map((n) => pick(seeded, n)),
      );
      for (const page of rest) assert.equal(listRv(page), listRv(first));
    });

    storeTest(ctx, 'the continue token is unpadded base64url JSON of revision and next key', async (env) => {
      await seed(env, ['a', 'b', 'c']);
      const list = await env.store.getList(env.prefix, { recursive: true, limit: 2 });
      const expected = { v: 'meta.k8s.io/v1', rv: listRv(list), start: 'b\u0000' };
      assert.deepEqual(decodeContinue(token(list)), expected);
      assert.equal(token(list), encodeContinue(expected));
    });

    storeTest(ctx, 'a continue token made by another server is honoured', async (env) => {
      const seeded = await seed(env, ['a', 'b', 'c', 'd']);
      const rv = rvOf(pick(seeded, 'd'));
      const made = encodeContinue({ v: 'meta.k8s.io/v1', rv, start: 'b\u0000' });
      const list = await env.store.getList(env.prefix, { recursive: true, limit: 5, continue: made });
      assert.deepEqual(names(list.items), ['c', 'd']);
      assert.equal(listRv(list), rv);
    });

    storeTest(ctx, 'malformed continue tokens fail with 400 BadRequest', async (env) => {
      await seed(env, ['a', 'b']);
      const bad = 'invalid continue token: continue key is not valid';
      const cases: [string, string, 'exact' | 'prefix'][] = [
        ['%%%', `${bad}: illegal base64 data at input byte 0`, 'exact'],
        [
          Buffer.from('not json').toString('base64url'),
          `${bad}: invalid character 'o' in literal null (expecting 'u')`,
          'exact',
        ],
        [
          Buffer.from('{"v":"meta.k8s.io/v1","rv":"5","start":"a"}').toString('base64url'),
          `${bad}: json: cannot unmarshal string into Go struct field continueToken.rv of type int64`,
          'exact',
        ],
        [
          encodeContinue({ v: 'meta.k8s.io/v2', rv: 5, start: 'a' }),
          `${bad}: server does not recognize this encoded version meta.k8s.io/v2`,
          'exact',
        ],
        [
          encodeContinue({ v: 'meta.k8s.io/v1', rv: 0, start: 'a' }),
          `${bad}: incorrect encoded start resourceVersion (version meta.k8s.io/v1)`,
          'exact',
        ],
        [
          encodeContinue({ v: 'meta.k8s.io/v1', rv: 5, start: '' }),
          `${bad}: encoded start key empty (version meta.k8s.io/v1)`,
          'exact',
        ],
        [encodeContinue({ v: 'meta.k8s.io/v1', rv: 5, start: '../x' }), `${bad}: ../x`, 'exact'],
      ];
      for (const [value, message, how] of cases) {
        const listed = env.store.getList(env.prefix, { recursive: true, limit: 1, continue: value });
        await rejectsStatus(listed, {
          code: 400,
          reason: 'BadRequest',
          ...(how === 'exact' ? { message } : { messagePrefix: message }),
        });
      }
    });

    storeTest(ctx, 'continue with a resourceVersion other than "0" fails with 400', async (env) => {
      await seed(env, ['a', 'b', 'c']);
      const first = await env.store.getList(env.prefix, { recursive: true, limit: 1 });
      const opts = { recursive: true, limit: 1, continue: token(first) };
      await rejectsStatus(
        env.store.getList(env.prefix, { ...opts, resourceVersion: String(listRv(first)) }),
        {
          code: 400,
          reason: 'BadRequest',
          message: 'specifying resource version is not allowed when using continue',
        },
      );
      const withZero = await env.store.getList(env.prefix, { ...opts, resourceVersion: '0' });
      assert.deepEqual(names(withZero.items), ['b']);
    });

    storeTest(
      ctx,
      'a compacted continue token fails with 410 and offers a token at the latest revision',
      async (env) => {
        await seed(env, ['a', 'b', 'c']);
        const first = await env.store.getList(env.prefix, { recursive: true, limit: 1 });
        await relabel(env, env.key('b'), { after: 'compaction' });
        const d = await env.store.create(env.key('d'), pod(env.ns, 'd'));
        await env.harness.compact(await env.store.currentResourceVersion());
        const opts = { recursive: true, limit: 10, continue: token(first) };
        const err = await rejectsStatus(env.store.getList(env.prefix, opts), {
          code: 410,
          reason: 'Expired',
          message: inconsistentContinue,
        });
        const offered = err.status.metadata.continue ?? '';
        assert.deepEqual(decodeContinue(offered), { v: 'meta.k8s.io/v1', rv: -1, start: 'a\u0000' });
        const rest = await env.store.getList(env.prefix, { recursive: true, limit: 10, continue: offered });
        assert.deepEqual(names(rest.items), ['b', 'c', 'd']);
        assert.deepEqual(rest.items[0]?.metadata.labels, { after: 'compaction' });
        assert.ok(listRv(rest) >= rvOf(d));
      },
      ['compaction'],
    );

    storeTest(ctx, 'a legacy resourceVersion with a limit reads exactly at that revision', async (env) => {
      const seeded = await seed(env, ['a', 'b', 'c']);
      const at = rvOf(pick(seeded, 'c'));
      await relabel(env, env.key('a'), { later: 'yes' });
      await env.store.create(env.key('d'), pod(env.ns, 'd'));
      const list = await env.store.getList(env.prefix, {
        recursive: true,
        limit: 10,
        resourceVersion: String(at),
      });
      assert.deepEqual(
        list.items,
        ['a', 'b', 'c'].map((n) => pick(seeded, n)),
      );
      assert.equal(listRv(list), at);
    });

    storeTest(ctx, 'Exact with a limit pages at that revision', async (env) => {
      const seeded = await seed(env, ['a', 'b', 'c']);
      const at = rvOf(pick(seeded, 'c'));
      await env.store.delete(env.key('b'));
      const pages = await allPages(env, {
        limit: 2,
        resourceVersion: String(at),
        resourceVersionMatch: 'Exact',
      });
      assert.deepEqual(
        pages.flatMap((p) => p.items),
        ['a', 'b', 'c'].map((n) => pick(seeded, n)),
      );
      for (const page of pages) assert.equal(listRv(page), at);
    });

    storeTest(ctx, 'NotOlderThan with a limit reads the current state', async (env) => {
      const seeded = await seed(env, ['a', 'b']);
      const b2 = await relabel(env, env.key('b'), { v: '2' });
      const opts = {
        recursive: true,
        limit: 10,
        resourceVersion: String(rvOf(pick(seeded, 'a'))),
        resourceVersionMatch: 'NotOlderThan',
      } as const;
      const list = await env.store.getList(env.prefix, opts);
      if (env.opts.laggingReads) return;
      assert.deepEqual(list.items, [pick(seeded, 'a'), b2]);
      assert.ok(listRv(list) >= rvOf(b2));
    });
  });
}
