// delete, after RunTest*Delete* in k8s.io/apiserver/pkg/storage/testing/store_tests.go and
// conditionalDelete in pkg/storage/etcd3/store.go.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { storeTest, type SuiteContext, type TestEnv } from './harness.js';
import { relabel, rejectsStorage, rvOf } from './helpers.js';
import { cached, clone, pod, withRv, type TestObject } from './test-object.js';

function createFoo(env: TestEnv, labels: Record<string, string> = {}): Promise<TestObject> {
  return env.store.create(env.key('foo'), pod(env.ns, 'foo', { uid: 'A', labels }));
}

/** Asserts `deleted` is `last` with a newer resourceVersion and the key is gone. */
async function assertDeleted(env: TestEnv, deleted: TestObject, last: TestObject): Promise<void> {
  assert.ok(rvOf(deleted) > rvOf(last), `delete rv ${rvOf(deleted)} should exceed ${rvOf(last)}`);
  assert.deepEqual(deleted, withRv(last, rvOf(deleted)));
  await rejectsStorage(env.store.get(env.key('foo')), 'KeyNotFound');
}

function setUid(env: TestEnv, uid: string): Promise<TestObject> {
  return env.store.guaranteedUpdate(env.key('foo'), {
    tryUpdate: (obj) => {
      assert.ok(obj !== null);
      return { ...obj, metadata: { ...obj.metadata, uid } };
    },
  });
}

export function registerDeleteTests(ctx: SuiteContext): void {
  describe('delete', () => {
    storeTest(ctx, 'returns the last state with the deletion resourceVersion', async (env) => {
      const created = await createFoo(env, { app: 'x' });
      const deleted = await env.store.delete(env.key('foo'));
      await assertDeleted(env, deleted, created);
      assert.ok((await env.store.currentResourceVersion()) >= rvOf(deleted));
    });

    storeTest(ctx, 'a missing key fails with KeyNotFound', async (env) => {
      await rejectsStorage(env.store.delete(env.key('missing')), 'KeyNotFound', {
        key: env.key('missing'),
        resourceVersion: 0,
      });
    });

    storeTest(ctx, 'matching uid and resourceVersion preconditions delete', async (env) => {
      const created = await createFoo(env);
      const preconditions = { uid: 'A', resourceVersion: String(rvOf(created)) };
      await assertDeleted(env, await env.store.delete(env.key('foo'), { preconditions }), created);
    });

    storeTest(ctx, 'a uid precondition mismatch fails with InvalidObj and keeps the object', async (env) => {
      const created = await createFoo(env);
      await rejectsStorage(env.store.delete(env.key('foo'), { preconditions: { uid: 'B' } }), 'InvalidObj', {
        key: env.key('foo'),
        additionalErrorMsg: 'Precondition failed: UID in precondition: B, UID in object meta: A',
      });
      assert.deepEqual(await env.store.get(env.key('foo')), created);
    });

    storeTest(ctx, 'a resourceVersion precondition mismatch fails with InvalidObj', async (env) => {
      const created = await createFoo(env);
      const stale = String(rvOf(created) - 1);
      await rejectsStorage(
        env.store.delete(env.key('foo'), { preconditions: { resourceVersion: stale } }),
        'InvalidObj',
        {
          key: env.key('foo'),
          additionalErrorMsg: `Precondition failed: ResourceVersion in precondition: ${stale}, ResourceVersion in object meta: ${rvOf(created)}`,
        },
      );
      assert.deepEqual(await env.store.get(env.key('foo')), created);
    });

    storeTest(ctx, 'validateDeletion sees the current object and its error keeps the object', async (env) => {
      const created = await createFoo(env);
      const seen: TestObject[] = [];
      const refusal = new Error('validation error');
      const deletion = env.store.delete(env.key('foo'), {
        validateDeletion: (obj) => {
          seen.push(clone(obj));
          throw refusal;
        },
      });
      await assert.rejects(deletion, (err) => err === refusal);
      assert.deepEqual(seen, [created]);
      assert.deepEqual(await env.store.get(env.key('foo')), created);
    });

    storeTest(ctx, 'an async validateDeletion is awaited', async (env) => {
      const created = await createFoo(env);
      const deletion = env.store.delete(env.key('foo'), {
        validateDeletion: async () => {
          await new Promise((resolve) => setImmediate(resolve));
          throw new Error('async refusal');
        },
      });
      await assert.rejects(deletion, { message: 'async refusal' });
      assert.deepEqual(await env.store.get(env.key('foo')), created);
    });

    storeTest(ctx, 'a write between read and delete makes the delete retry on the new state', async (env) => {
      await createFoo(env);
      let validations = 0;
      const interleaved: TestObject[] = [];
      const deleted = await env.store.delete(env.key('foo'), {
        validateDeletion: async () => {
          validations += 1;
          if (validations === 1) interleaved.push(await relabel(env, env.key('foo'), { foo: 'bar' }));
        },
      });
      assert.equal(validations, 2);
      assert.equal(interleaved.length, 1);
      await assertDeleted(env, deleted, interleaved[0]!);
    });

    registerCachedExistingTests(ctx);
  });
}

function registerCachedExistingTests(ctx: SuiteContext): void {
  storeTest(ctx, 'an up-to-date cachedExisting deletes', async (env) => {
    const created = await createFoo(env);
    await assertDeleted(
      env,
      await env.store.delete(env.key('foo'), { cachedExisting: cached(created) }),
      created,
    );
  });

  storeTest(ctx, 'a stale cachedExisting deletes and returns the current state', async (env) => {
    const stale = await createFoo(env);
    const current = await relabel(env, env.key('foo'), { foo: 'bar' });
    await assertDeleted(
      env,
      await env.store.delete(env.key('foo'), { cachedExisting: cached(stale) }),
      current,
    );
  });

  storeTest(ctx, 'a cachedExisting of an already deleted object fails with KeyNotFound', async (env) => {
    const stale = await createFoo(env);
    await env.store.delete(env.key('foo'), { cachedExisting: cached(stale) });
    await rejectsStorage(env.store.delete(env.key('foo'), { cachedExisting: cached(stale) }), 'KeyNotFound');
  });

  storeTest(
    ctx,
    'a stale cachedExisting failing preconditions the current state meets deletes',
    async (env) => {
      const stale = await createFoo(env);
      const current = await setUid(env, 'myUID');
      const deleted = await env.store.delete(env.key('foo'), {
        cachedExisting: cached(stale),
        preconditions: { uid: 'myUID' },
      });
      await assertDeleted(env, deleted, current);
    },
  );

  storeTest(
    ctx,
    'a stale cachedExisting meeting preconditions the current state fails is refused',
    async (env) => {
      const stale = await createFoo(env);
      const current = await setUid(env, 'otherUID');
      const deletion = env.store.delete(env.key('foo'), {
        cachedExisting: cached(stale),
        preconditions: { uid: 'A' },
      });
      await rejectsStorage(deletion, 'InvalidObj', {
        key: env.key('foo'),
        additionalErrorMsg: 'Precondition failed: UID in precondition: A, UID in object meta: otherUID',
      });
      assert.deepEqual(await env.store.get(env.key('foo')), current);
    },
  );

  storeTest(ctx, 'an up-to-date cachedExisting failing preconditions returns that error', async (env) => {
    const created = await createFoo(env);
    const deletion = env.store.delete(env.key('foo'), {
      cachedExisting: cached(created),
      preconditions: { uid: 'B' },
    });
    await rejectsStorage(deletion, 'InvalidObj', {
      key: env.key('foo'),
      additionalErrorMsg: 'Precondition failed: UID in precondition: B, UID in object meta: A',
    });
    assert.deepEqual(await env.store.get(env.key('foo')), created);
  });

  storeTest(
    ctx,
    'validateDeletion refusing a cachedExisting said current is final',
    async (env) => {
      // Said current, the state is trusted: even a stale one is not read again.
      const stale = await createFoo(env);
      const current = await relabel(env, env.key('foo'), { foo: 'bar' });
      let calls = 0;
      const deletion = env.store.delete(env.key('foo'), {
        cachedExisting: { ...cached(stale), current: true },
        validateDeletion: (obj) => {
          calls += 1;
          if (obj.metadata.labels?.foo !== 'bar') throw new Error('stale object');
        },
      });
      await assert.rejects(deletion, { message: 'stale object' });
      assert.equal(calls, 1, 'validateDeletion was tried again on a read state');
      assert.deepEqual(await env.store.get(env.key('foo')), current);
    },
    ['takesCachedExisting'],
  );

  storeTest(
    ctx,
    'validateDeletion failing on a stale cachedExisting is retried on the current state',
    async (env) => {
      const stale = await createFoo(env);
      const current = await relabel(env, env.key('foo'), { foo: 'bar' });
      let calls = 0;
      const deleted = await env.store.delete(env.key('foo'), {
        cachedExisting: cached(stale),
        validateDeletion: (obj) => {
          calls += 1;
          if (obj.metadata.labels?.foo !== 'bar') throw new Error('stale object');
        },
      });
      assert.ok(calls <= 2, `validateDeletion called ${calls} times`);
      await assertDeleted(env, deleted, current);
    },
  );

  storeTest(
    ctx,
    'validateDeletion passing only the stale cachedExisting fails and keeps the object',
    async (env) => {
      const stale = await createFoo(env, { foo: 'bar' });
      const current = await relabel(env, env.key('foo'), { foo: 'barbar' });
      let calls = 0;
      const deletion = env.store.delete(env.key('foo'), {
        cachedExisting: cached(stale),
        validateDeletion: (obj) => {
          calls += 1;
          if (obj.metadata.labels?.foo !== 'bar') throw new Error('stale object');
        },
      });
      await assert.rejects(deletion, { message: 'stale object' });
      assert.ok(calls <= 2, `validateDeletion called ${calls} times`);
      assert.deepEqual(await env.store.get(env.key('foo')), current);
    },
  );
}
