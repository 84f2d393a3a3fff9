// guaranteedUpdate given a possibly stale cachedExisting (the watch cache's copy), after
// RunTestGuaranteedUpdateWithSuggestion* in k8s.io/apiserver/pkg/storage/testing/store_tests.go.
import assert from 'node:assert/strict';
import { storeTest, type SuiteContext, type TestEnv } from './harness.js';
import { relabel, rvOf } from './helpers.js';
import { cached, clone, pod, withAnnotation, withLabels, withRv, type TestObject } from './test-object.js';

function createFoo(env: TestEnv): Promise<TestObject> {
  return env.store.create(env.key('foo'), pod(env.ns, 'foo', { uid: 'A', labels: {} }));
}

export function registerUpdateCachedExistingTests(ctx: SuiteContext): void {
  storeTest(
    ctx,
    'a stale cachedExisting is re-read and the result is built on the current state',
    async (env) => {
      const stale = await createFoo(env);
      const current = await relabel(env, env.key('foo'), { fresh: 'yes' });
      const seen: (TestObject | null)[] = [];
      const out = await env.store.guaranteedUpdate(env.key('foo'), {
        cachedExisting: cached(stale),
        tryUpdate: (obj) => (seen.push(clone(obj)), withAnnotation(obj ?? stale, 'touched', 'yes')),
      });
      assert.ok(seen.length >= 1 && seen.length <= 2, `tryUpdate called ${seen.length} times`);
      assert.deepEqual(seen.at(-1), current);
      assert.deepEqual(out, withRv(withAnnotation(current, 'touched', 'yes'), rvOf(out)));
    },
  );

  storeTest(
    ctx,
    'tryUpdate failing on a stale cachedExisting is retried on the current state',
    async (env) => {
      const stale = await createFoo(env);
      await relabel(env, env.key('foo'), { foo: 'bar' });
      const out = await env.store.guaranteedUpdate(env.key('foo'), {
        cachedExisting: cached(stale),
        tryUpdate: (obj) => {
          if (obj?.metadata.labels?.foo !== 'bar') throw new Error('stale object');
          return withAnnotation(obj, 'ok', 'yes');
        },
      });
      assert.deepEqual(out.metadata.annotations, { ok: 'yes' });
    },
  );

  storeTest(
    ctx,
    'preconditions failing on a stale cachedExisting are checked again on the current state',
    async (env) => {
      const stale = await createFoo(env);
      const current = await env.store.guaranteedUpdate(env.key('foo'), {
        tryUpdate: (obj) => ({ ...(obj ?? stale), metadata: { ...(obj ?? stale).metadata, uid: 'B' } }),
      });
      const out = await env.store.guaranteedUpdate(env.key('foo'), {
        cachedExisting: cached(stale),
        preconditions: { uid: 'B' },
        tryUpdate: (obj) => withLabels(obj ?? stale, { passed: 'yes' }),
      });
      assert.deepEqual(out, withRv(withLabels(current, { passed: 'yes' }), rvOf(out)));
    },
  );

  storeTest(ctx, 'an up-to-date cachedExisting failing tryUpdate returns the error', async (env) => {
    const created = await createFoo(env);
    let calls = 0;
    const update = env.store.guaranteedUpdate(env.key('foo'), {
      cachedExisting: cached(created),
      tryUpdate: () => {
        calls += 1;
        throw new Error('always refuses');
      },
    });
    await assert.rejects(update, { message: 'always refuses' });
    assert.ok(calls >= 1 && calls <= 2, `tryUpdate called ${calls} times`);
    assert.deepEqual(await env.store.get(env.key('foo')), created);
  });

  storeTest(
    ctx,
    'a cachedExisting said current is not read again from storage',
    async (env) => {
      const created = await createFoo(env);
      let calls = 0;
      const refused = env.store.guaranteedUpdate(env.key('foo'), {
        cachedExisting: { ...cached(created), current: true },
        tryUpdate: () => {
          calls += 1;
          throw new Error('always refuses');
        },
      });
      await assert.rejects(refused, { message: 'always refuses' });
      assert.equal(calls, 1, 'a refused update was tried again on a read state');
      const out = await env.store.guaranteedUpdate(env.key('foo'), {
        cachedExisting: { ...cached(created), current: true },
        tryUpdate: (obj) => {
          calls += 1;
          return clone(obj ?? created);
        },
      });
      assert.equal(calls, 2, 'a no-op update was tried again on a read state');
      assert.deepEqual(out, created);
    },
    ['takesCachedExisting'],
  );

  storeTest(ctx, 'a no-op update from a stale cachedExisting writes nothing', async (env) => {
    const stale = await createFoo(env);
    const current = await relabel(env, env.key('foo'), { fresh: 'yes' });
    const out = await env.store.guaranteedUpdate(env.key('foo'), {
      cachedExisting: cached(stale),
      tryUpdate: (obj) => clone(obj ?? stale),
    });
    assert.deepEqual(out, current);
    assert.deepEqual(await env.store.get(env.key('foo')), current);
  });
}
