// create and get, after RunTestCreate*, RunTestGet in k8s.io/apiserver/pkg/storage/testing/store_tests.go.
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { describe } from 'node:test';
import { storeTest, type SuiteContext, type TestEnv } from './harness.js';
import { poll, rejectsBadResourceVersion, rejectsStorage, rejectsTooLarge, rvOf } from './helpers.js';
import { clone, pod, withAnnotation, withRv } from './test-object.js';
import { assertEvent } from './watch-reader.js';

export function registerCreateTests(ctx: SuiteContext): void {
  describe('create', () => {
    storeTest(
      ctx,
      'stores the object and returns it with the write revision as resourceVersion',
      async (env) => {
        const input = pod(env.ns, 'foo', { labels: { app: 'a' }, nodeName: 'n1' });
        const before = await env.store.currentResourceVersion();
        const out = await env.store.create(env.key('foo'), input);
        const rv = rvOf(out);
        assert.ok(rv > before, `create revision ${rv} should exceed the previous revision ${before}`);
        assert.deepEqual(out, withRv(input, rv));
        assert.ok((await env.store.currentResourceVersion()) >= rv);
        assert.deepEqual(await env.store.get(env.key('foo')), out);
      },
    );

    storeTest(ctx, 'leaves the input untouched and does not alias the result', async (env) => {
      const input = pod(env.ns, 'foo', { labels: { app: 'a' } });
      const snapshot = clone(input);
      const out = await env.store.create(env.key('foo'), input);
      assert.deepEqual(input, snapshot);
      out.metadata.labels = { changed: 'yes' };
      input.metadata.labels = { changed: 'too' };
      const read = await env.store.get(env.key('foo'));
      assert.deepEqual(read, withRv(snapshot, rvOf(out)));
    });

    storeTest(ctx, 'gives successive writes increasing resourceVersions', async (env) => {
      const a = await env.store.create(env.key('a'), pod(env.ns, 'a'));
      const b = await env.store.create(env.key('b'), pod(env.ns, 'b'));
      const c = await env.store.create(env.key('c'), pod(env.ns, 'c'));
      assert.ok(rvOf(a) < rvOf(b) && rvOf(b) < rvOf(c), `${rvOf(a)} < ${rvOf(b)} < ${rvOf(c)}`);
    });

    storeTest(ctx, 'accepts an empty resourceVersion', async (env) => {
      const input = pod(env.ns, 'foo');
      input.metadata.resourceVersion = '';
      const out = await env.store.create(env.key('foo'), input);
      assert.deepEqual(out, withRv(input, rvOf(out)));
    });

    storeTest(ctx, 'fails with KeyExists on a taken key and keeps the stored object', async (env) => {
      const first = await env.store.create(env.key('foo'), pod(env.ns, 'foo'));
      const other = pod(env.ns, 'foo', { labels: { second: 'true' } });
      await rejectsStorage(env.store.create(env.key('foo'), other), 'KeyExists', {
        key: env.key('foo'),
        resourceVersion: 0,
      });
      assert.deepEqual(await env.store.get(env.key('foo')), first);
    });

    storeTest(ctx, 'rejects an object whose resourceVersion is set and stores nothing', async (env) => {
      const input = pod(env.ns, 'foo');
      input.metadata.resourceVersion = '1';
      await assert.rejects(env.store.create(env.key('foo'), input), {
        message: 'resourceVersion should not be set on objects to be created',
      });
      await rejectsStorage(env.store.get(env.key('foo')), 'KeyNotFound');
    });

    storeTest(ctx, 'creates a deleted key again with a new resourceVersion', async (env) => {
      const first = await env.store.create(env.key('foo'), pod(env.ns, 'foo'));
      const deleted = await env.store.delete(env.key('foo'));
      const again = await env.store.create(env.key('foo'), pod(env.ns, 'foo', { uid: 'second' }));
      assert.ok(rvOf(again) > rvOf(deleted) && rvOf(deleted) > rvOf(first));
      assert.deepEqual(await env.store.get(env.key('foo')), again);
    });

    storeTest(
      ctx,
      'expires an object created with a ttl and a watcher sees DELETED',
      async (env) => {
        const input = pod(env.ns, 'foo');
        const out = await env.store.create(env.key('foo'), input, { ttl: 1 });
        const reader = await env.watch(env.key('foo'), {
          resourceVersion: out.metadata.resourceVersion ?? '',
        });
        const event = await reader.nextChange('the ttl deletion', env.opts.ttlTimeoutMs);
        assert.equal(event.type, 'DELETED');
        const deleteRv = rvOf(event.object);
        assert.ok(deleteRv > rvOf(out));
        assertEvent(event, 'DELETED', withRv(input, deleteRv));
        await rejectsStorage(env.store.get(env.key('foo')), 'KeyNotFound');
      },
      ['ttl'],
    );

    storeTest(
      ctx,
      'keeps an object created without a ttl beside one that expires',
      async (env) => {
        const kept = await env.store.create(env.key('kept'), pod(env.ns, 'kept'));
        await env.store.create(env.key('gone'), pod(env.ns, 'gone'), { ttl: 1 });
        await poll('the ttl to expire gone', env.opts.ttlTimeoutMs, async () => {
          return (await env.store.get(env.key('gone'), { ignoreNotFound: true })) === null;
        });
        assert.deepEqual(await env.store.get(env.key('kept')), kept);
      },
      ['ttl'],
    );
  });
}

export function registerGetTests(ctx: SuiteContext): void {
  describe('get', () => {
    /** foo created, then updated; bar created after it so the store revision is past foo's. */
    const setup = async (env: TestEnv) => {
      const created = await env.store.create(env.key('foo'), pod(env.ns, 'foo'));
      const updated = await env.store.guaranteedUpdate(env.key('foo'), {
        tryUpdate: () => withAnnotation(created, 'test-annotation', '1'),
      });
      const bar = await env.store.create(env.key('bar'), pod(env.ns, 'bar'));
      return { created, updated, latest: rvOf(bar) };
    };

    storeTest(ctx, 'returns the current object when resourceVersion is unset or ""', async (env) => {
      const { updated } = await setup(env);
      assert.deepEqual(await env.store.get(env.key('foo')), updated);
      assert.deepEqual(await env.store.get(env.key('foo'), { resourceVersion: '' }), updated);
      assert.equal(rvOf(updated) > 0, true);
    });

    storeTest(ctx, 'resourceVersion "0" returns some state of the object', async (env) => {
      const { created, updated } = await setup(env);
      const out = await env.store.get(env.key('foo'), { resourceVersion: '0', ignoreNotFound: true });
      const alternatives = [null, created, updated];
      assert.ok(
        alternatives.some((alt) => isDeepStrictEqual(alt, out)),
        `unexpected object ${JSON.stringify(out)}`,
      );
    });

    storeTest(ctx, 'an older resourceVersion is a minimum: the current object comes back', async (env) => {
      const { created, updated } = await setup(env);
      const out = await env.store.get(env.key('foo'), {
        resourceVersion: created.metadata.resourceVersion ?? '',
      });
      if (env.opts.laggingReads && isDeepStrictEqual(out, created)) return;
      assert.deepEqual(out, updated);
    });

    storeTest(ctx, 'the object or store resourceVersion returns the current object', async (env) => {
      const { updated, latest } = await setup(env);
      const atObject = await env.store.get(env.key('foo'), { resourceVersion: String(rvOf(updated)) });
      assert.deepEqual(atObject, updated);
      assert.deepEqual(await env.store.get(env.key('foo'), { resourceVersion: String(latest) }), updated);
    });

    storeTest(ctx, 'a resourceVersion above the store revision fails with 504 Too large', async (env) => {
      const { latest } = await setup(env);
      const requested = latest + 1000;
      const before = await env.store.currentResourceVersion();
      const got = env.store.get(env.key('foo'), { resourceVersion: String(requested) });
      await rejectsTooLarge(got, requested, { before, after: () => env.store.currentResourceVersion() });
    });

    storeTest(ctx, 'the minimum resourceVersion is checked before a missing key is ignored', async (env) => {
      const { latest } = await setup(env);
      const before = await env.store.currentResourceVersion();
      const opts = { resourceVersion: String(latest + 1000), ignoreNotFound: true };
      const missing = env.store.get(env.key('missing'), opts);
      await rejectsTooLarge(missing, latest + 1000, {
        before,
        after: () => env.store.currentResourceVersion(),
      });
    });

    storeTest(ctx, 'malformed resourceVersions fail with 400 BadRequest', async (env) => {
      await setup(env);
      await rejectsBadResourceVersion(env.store.get(env.key('foo'), { resourceVersion: 'abc' }));
      await rejectsBadResourceVersion(env.store.get(env.key('foo'), { resourceVersion: '-1' }));
      await rejectsBadResourceVersion(env.store.get(env.key('foo'), { resourceVersion: '1.5' }));
    });

    storeTest(ctx, 'a missing key fails with KeyNotFound', async (env) => {
      await setup(env);
      await rejectsStorage(env.store.get(env.key('missing')), 'KeyNotFound', {
        key: env.key('missing'),
        resourceVersion: 0,
      });
    });

    storeTest(ctx, 'ignoreNotFound returns null for a missing key', async (env) => {
      await setup(env);
      assert.equal(await env.store.get(env.key('missing'), { ignoreNotFound: true }), null);
      assert.equal(await env.store.get(`${env.prefix}-nothing/x`, { ignoreNotFound: true }), null);
    });

    storeTest(ctx, 'a key is exact: a sibling with a longer name is another object', async (env) => {
      await env.store.create(env.key('ab'), pod(env.ns, 'ab'));
      await env.store.create(env.key('a/b'), pod(env.ns, 'a/b'));
      await rejectsStorage(env.store.get(env.key('a')), 'KeyNotFound');
    });
  });
}
