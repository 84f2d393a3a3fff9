// guaranteedUpdate, after RunTestGuaranteedUpdate* in k8s.io/apiserver/pkg/storage/testing/store_tests.go
// and GuaranteedUpdate in pkg/storage/etcd3/store.go.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { ResponseMeta } from '../interfaces.js';
import { storeTest, type SuiteContext, type TestEnv } from './harness.js';
import { registerUpdateCachedExistingTests } from './update-cached.js';
import { poll, relabel, rejectsStorage, rvOf } from './helpers.js';
import { clone, pod, withAnnotation, withLabels, withRv, type TestObject } from './test-object.js';

interface Call {
  current: TestObject | null;
  meta: ResponseMeta;
}

/** Creates foo (uid A) and returns it. */
function createFoo(env: TestEnv, labels: Record<string, string> = {}): Promise<TestObject> {
  return env.store.create(env.key('foo'), pod(env.ns, 'foo', { uid: 'A', labels }));
}

export function registerUpdateTests(ctx: SuiteContext): void {
  describe('guaranteedUpdate', () => {
    storeTest(ctx, 'writes the new object with a new resourceVersion', async (env) => {
      const created = await createFoo(env);
      const desired = withLabels(created, { new: 'label' });
      const out = await env.store.guaranteedUpdate(env.key('foo'), { tryUpdate: () => clone(desired) });
      assert.ok(rvOf(out) > rvOf(created));
      assert.deepEqual(out, withRv(desired, rvOf(out)));
      assert.deepEqual(await env.store.get(env.key('foo')), out);
      assert.ok((await env.store.currentResourceVersion()) >= rvOf(out));
    });

    storeTest(ctx, 'tryUpdate gets the current object and its resourceVersion', async (env) => {
      const created = await createFoo(env);
      const calls: Call[] = [];
      await env.store.guaranteedUpdate(env.key('foo'), {
        tryUpdate: (current, meta) => {
          calls.push({ current: clone(current), meta: { ...meta } });
          return withAnnotation(created, 'x', 'y');
        },
      });
      assert.deepEqual(calls, [{ current: created, meta: { resourceVersion: rvOf(created) } }]);
    });

    storeTest(ctx, 'tryUpdate may change the object it was given and return it', async (env) => {
      await createFoo(env);
      const out = await env.store.guaranteedUpdate(env.key('foo'), {
        tryUpdate: (current) => {
          assert.ok(current !== null);
          current.spec = { nodeName: 'node-1' };
          return current;
        },
      });
      assert.equal(out.spec?.nodeName, 'node-1');
      assert.deepEqual(await env.store.get(env.key('foo')), out);
    });

    storeTest(ctx, 'an update that changes nothing writes nothing and sends no event', async (env) => {
      const created = await createFoo(env);
      const reader = await env.watch(env.key('foo'), { resourceVersion: String(rvOf(created)) });
      const same = await env.store.guaranteedUpdate(env.key('foo'), {
        tryUpdate: (current) => clone(current ?? created),
      });
      assert.deepEqual(same, created);
      const unversioned = await env.store.guaranteedUpdate(env.key('foo'), {
        tryUpdate: () => pod(env.ns, 'foo', { uid: 'A', labels: {} }),
      });
      assert.deepEqual(unversioned, created);
      assert.deepEqual(await env.store.get(env.key('foo')), created);
      const real = await relabel(env, env.key('foo'), { real: 'change' });
      const event = await reader.nextChange('the real update');
      assert.equal(event.type, 'MODIFIED');
      assert.deepEqual(event.object, real);
    });

    storeTest(
      ctx,
      'a write between read and write makes tryUpdate run again on the new state',
      async (env) => {
        await createFoo(env);
        const seen: (TestObject | null)[] = [];
        const out = await env.store.guaranteedUpdate(env.key('foo'), {
          tryUpdate: async (current) => {
            seen.push(clone(current));
            if (seen.length === 1) await relabel(env, env.key('foo'), { interloper: 'yes' });
            assert.ok(current !== null);
            return withAnnotation(current, 'mine', 'yes');
          },
        });
        assert.equal(seen.length, 2);
        assert.deepEqual(seen[1]?.metadata.labels, { interloper: 'yes' });
        assert.deepEqual(out.metadata.labels, { interloper: 'yes' });
        assert.deepEqual(out.metadata.annotations, { mine: 'yes' });
        assert.deepEqual(await env.store.get(env.key('foo')), out);
      },
    );

    storeTest(ctx, 'concurrent updates of one key lose no write', async (env) => {
      await createFoo(env);
      const bump = () =>
        env.store.guaranteedUpdate(env.key('foo'), {
          tryUpdate: async (current) => {
            assert.ok(current !== null);
            await new Promise((resolve) => setImmediate(resolve));
            const count = Number(current.metadata.annotations?.count ?? '0');
            return withAnnotation(current, 'count', String(count + 1));
          },
        });
      await Promise.all(Array.from({ length: 6 }, bump));
      const final = await env.store.get(env.key('foo'));
      assert.equal(final?.metadata.annotations?.count, '6');
    });

    storeTest(ctx, 'a uid precondition mismatch fails with InvalidObj', async (env) => {
      const created = await createFoo(env);
      let called = false;
      const update = env.store.guaranteedUpdate(env.key('foo'), {
        preconditions: { uid: 'B' },
        tryUpdate: (current) => ((called = true), clone(current ?? created)),
      });
      await rejectsStorage(update, 'InvalidObj', {
        key: env.key('foo'),
        additionalErrorMsg: 'Precondition failed: UID in precondition: B, UID in object meta: A',
      });
      assert.equal(called, false);
      assert.deepEqual(await env.store.get(env.key('foo')), created);
    });

    storeTest(ctx, 'a resourceVersion precondition mismatch fails with InvalidObj', async (env) => {
      const created = await createFoo(env);
      const wrong = String(rvOf(created) + 100);
      const update = env.store.guaranteedUpdate(env.key('foo'), {
        preconditions: { resourceVersion: wrong },
        tryUpdate: () => withLabels(created, { x: 'y' }),
      });
      await rejectsStorage(update, 'InvalidObj', {
        key: env.key('foo'),
        additionalErrorMsg: `Precondition failed: ResourceVersion in precondition: ${wrong}, ResourceVersion in object meta: ${rvOf(created)}`,
      });
      assert.deepEqual(await env.store.get(env.key('foo')), created);
    });

    storeTest(ctx, 'matching preconditions let the update through', async (env) => {
      const created = await createFoo(env);
      const out = await env.store.guaranteedUpdate(env.key('foo'), {
        preconditions: { uid: 'A', resourceVersion: String(rvOf(created)) },
        tryUpdate: () => withLabels(created, { x: 'y' }),
      });
      assert.deepEqual(out.metadata.labels, { x: 'y' });
    });

    storeTest(ctx, 'ignoreNotFound passes null to tryUpdate and creates the object', async (env) => {
      const calls: Call[] = [];
      const desired = pod(env.ns, 'foo');
      const out = await env.store.guaranteedUpdate(env.key('foo'), {
        ignoreNotFound: true,
        tryUpdate: (current, meta) => (calls.push({ current, meta: { ...meta } }), clone(desired)),
      });
      assert.deepEqual(calls, [{ current: null, meta: { resourceVersion: 0 } }]);
      assert.deepEqual(out, withRv(desired, rvOf(out)));
      assert.deepEqual(await env.store.get(env.key('foo')), out);
    });

    storeTest(ctx, 'ignoreNotFound on an existing key updates it', async (env) => {
      const created = await createFoo(env);
      const out = await env.store.guaranteedUpdate(env.key('foo'), {
        ignoreNotFound: true,
        tryUpdate: (current) => withLabels(current ?? assert.fail('expected the object'), { x: 'y' }),
      });
      assert.deepEqual(out, withRv(withLabels(created, { x: 'y' }), rvOf(out)));
    });

    storeTest(ctx, 'a missing key without ignoreNotFound fails with KeyNotFound', async (env) => {
      let called = false;
      const update = env.store.guaranteedUpdate(env.key('foo'), {
        tryUpdate: () => ((called = true), pod(env.ns, 'foo')),
      });
      await rejectsStorage(update, 'KeyNotFound', { key: env.key('foo'), resourceVersion: 0 });
      assert.equal(called, false);
      await rejectsStorage(env.store.get(env.key('foo')), 'KeyNotFound');
    });

    storeTest(ctx, 'an error thrown by tryUpdate propagates and nothing is written', async (env) => {
      const created = await createFoo(env);
      const reader = await env.watch(env.key('foo'), { resourceVersion: String(rvOf(created)) });
      const thrown = new Error('refused by tryUpdate');
      const update = env.store.guaranteedUpdate(env.key('foo'), {
        tryUpdate: () => {
          throw thrown;
        },
      });
      await assert.rejects(update, (err) => err === thrown);
      assert.deepEqual(await env.store.get(env.key('foo')), created);
      const later = await env.store.delete(env.key('foo'));
      assert.deepEqual((await reader.nextChange('the delete after the failed update')).object, later);
    });

    storeTest(ctx, 'a resourceVersion in the result of tryUpdate is ignored', async (env) => {
      const created = await createFoo(env);
      const out = await env.store.guaranteedUpdate(env.key('foo'), {
        tryUpdate: () => withRv(withLabels(created, { x: 'y' }), 1),
      });
      assert.ok(rvOf(out) > rvOf(created));
      assert.deepEqual(out, withRv(withLabels(created, { x: 'y' }), rvOf(out)));
    });

    registerUpdateCachedExistingTests(ctx);

    storeTest(
      ctx,
      'a ttl on update expires the object',
      async (env) => {
        const created = await createFoo(env);
        await env.store.guaranteedUpdate(env.key('foo'), {
          ttl: 1,
          tryUpdate: () => withLabels(created, { ttl: 'yes' }),
        });
        await poll('the ttl to expire foo', env.opts.ttlTimeoutMs, async () => {
          return (await env.store.get(env.key('foo'), { ignoreNotFound: true })) === null;
        });
      },
      ['ttl'],
    );
  });
}
