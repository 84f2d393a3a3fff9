// A current read (no resourceVersion) of a local store: the cache answers it at once when it holds
// the store's revision, and waits for the store's newer writes otherwise (read your writes).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Interface } from '../interfaces.js';
import { pod, type TestObject } from '../testing/test-object.js';
import { podCacher } from './testing/pods.js';

/** `store` with its currentResourceVersion() calls counted. */
function counting(store: Interface<TestObject>): { store: Interface<TestObject>; asked: () => number } {
  let asked = 0;
  const wrapped = new Proxy(store, {
    get(target, prop) {
      if (prop === 'currentResourceVersion') {
        return () => {
          asked++;
          return target.currentResourceVersion();
        };
      }
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { store: wrapped, asked: () => asked };
}

describe('a current read from the watch cache of a local store', () => {
  it('is answered from the cache without asking the store when the cache has its revision', async () => {
    let count: ReturnType<typeof counting> | undefined;
    const pods = await podCacher({
      wrap: (s) => {
        count = counting(s);
        return count.store;
      },
    });
    try {
      const created = await pods.cacher.create('/pods/ns/a', pod('ns', 'a'));
      const rv = created.metadata.resourceVersion ?? '';
      const atRv = await pods.cacher.getEncoded('/pods/ns/a', { resourceVersion: rv });
      const before = count?.asked() ?? -1;
      const current = await pods.cacher.getEncoded('/pods/ns/a');
      assert.deepEqual(current, atRv);
      assert.deepEqual(await pods.cacher.getEncoded('/pods/ns/a', { resourceVersion: '0' }), atRv);
      assert.equal((await pods.cacher.get('/pods/ns/a'))?.metadata.resourceVersion, rv);
      await assert.rejects(pods.cacher.get('/pods/ns/none'), { name: 'StorageError' });
      assert.equal(count?.asked(), before, 'the store was asked for its revision');
    } finally {
      await pods.close();
    }
  });

  it("waits for a write the cache has not seen yet: the store's revision is ahead", async () => {
    const pods = await podCacher();
    try {
      for (let i = 0; i < 20; i++) {
        // Written past the cacher: its watch delivers the event later.
        const created = await pods.store.create(`/pods/ns/w${i}`, pod('ns', `w${i}`));
        const read = await pods.cacher.get(`/pods/ns/w${i}`);
        assert.equal(read?.metadata.resourceVersion, created.metadata.resourceVersion);
      }
    } finally {
      await pods.close();
    }
  });

  it('fails with a storage error once the store is closed', async () => {
    const pods = await podCacher();
    await pods.cacher.create('/pods/ns/c', pod('ns', 'c'));
    await pods.backend.close();
    try {
      // Whether the cache still counts as ready or not, the read fails as the store does.
      await assert.rejects(pods.cacher.getEncoded('/pods/ns/c'), (err: unknown) => {
        assert.equal((err as Error).name, 'StorageError');
        assert.match((err as Error).message, /the backend is closed/);
        return true;
      });
    } finally {
      await pods.cacher.stop();
    }
  });

  it('gives a cached object at once to getCachedNow, shared and frozen, and nothing it does not hold', async () => {
    const pods = await podCacher();
    try {
      await pods.cacher.create('/pods/ns/n', pod('ns', 'n'));
      const read = await pods.cacher.get('/pods/ns/n', { resourceVersion: '0', readOnly: true });
      const now = pods.cacher.getCachedNow('/pods/ns/n');
      assert.equal(now, read, 'the same shared decode as a read-only get');
      assert.ok(Object.isFrozen(now) && Object.isFrozen(now.metadata));
      assert.equal(pods.cacher.getCachedNow('/pods/ns/none'), undefined);
      // A write the cache has seen is what it answers next.
      const updated = await pods.cacher.guaranteedUpdate('/pods/ns/n', {
        tryUpdate: (cur) => {
          assert.ok(cur !== null);
          return { ...cur, metadata: { ...cur.metadata, labels: { a: 'b' } } };
        },
      });
      await pods.cacher.get('/pods/ns/n', { resourceVersion: updated.metadata.resourceVersion ?? '' });
      assert.deepEqual(pods.cacher.getCachedNow('/pods/ns/n')?.metadata.labels, { a: 'b' });
    } finally {
      await pods.close();
    }
  });
});
