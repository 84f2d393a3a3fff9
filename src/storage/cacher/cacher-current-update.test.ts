// An update through the watch cache of a local store: when the cache holds the store's revision, its
// state is current, and a no-op or a refused update answers without reading storage (kube reads etcd
// again, not knowing whether its cache is behind). A cache that has not seen a write is not trusted.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Interface, ListOptions } from '../interfaces.js';
import type { TestObject } from '../testing/test-object.js';
import { pod } from '../testing/test-object.js';
import { WatchChan, type Watch } from '../watch-chan.js';
import { caughtUp, podCacher, rvOf, type PodCacher } from './testing/pods.js';

/** Counts the backend's reads of single keys. */
function countGets(pods: PodCacher): () => number {
  let gets = 0;
  const get = pods.backend.get.bind(pods.backend);
  pods.backend.get = (...args) => {
    gets++;
    return get(...args);
  };
  return () => gets;
}

/** `store` whose watches hold their events from hold() to release(): a cache behind its store. */
function lagging(store: Interface<TestObject>): {
  store: Interface<TestObject>;
  hold: () => void;
  release: () => void;
} {
  let gate: Promise<void> | null = null;
  let open = (): void => undefined;
  const watch = async (key: string, opts?: ListOptions<TestObject>): Promise<Watch<TestObject>> => {
    const inner = await store.watch(key, opts);
    const chan = new WatchChan<TestObject>({
      onStop: () => {
        inner.stop();
      },
    });
    void (async () => {
      for await (const event of inner) {
        if (gate !== null) await gate;
        if (!chan.push(event)) break;
      }
      inner.stop();
    })();
    return chan;
  };
  const wrapped = new Proxy(store, {
    get(target, prop) {
      if (prop === 'watch') return watch;
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return {
    store: wrapped,
    hold: () => {
      gate ??= new Promise((resolve) => (open = resolve));
    },
    release: () => {
      gate = null;
      open();
    },
  };
}

const labelled = (obj: TestObject | null, value: string): TestObject => {
  if (obj === null) throw new Error('no object');
  return { ...obj, metadata: { ...obj.metadata, labels: { ...obj.metadata.labels, step: value } } };
};

describe('an update through the watch cache of a local store', () => {
  it('reads nothing from storage for a no-op or a refusal when the cache has the revision', async () => {
    const pods = await podCacher();
    try {
      const created = await pods.cacher.create('/pods/ns/a', pod('ns', 'a'));
      await caughtUp(pods.cacher, rvOf(created));
      const gets = countGets(pods);
      let tries = 0;
      const same = await pods.cacher.guaranteedUpdate('/pods/ns/a', {
        tryUpdate: (obj) => {
          tries++;
          if (obj === null) throw new Error('no object');
          return obj;
        },
      });
      assert.equal(same.metadata.resourceVersion, created.metadata.resourceVersion);
      const refused = pods.cacher.guaranteedUpdate('/pods/ns/a', {
        tryUpdate: () => {
          tries++;
          throw new Error('refused');
        },
      });
      await assert.rejects(refused, { message: 'refused' });
      assert.equal(tries, 2);
      assert.equal(gets(), 0, 'storage was read');
    } finally {
      await pods.close();
    }
  });

  it('works from the current state when the cache has not seen the last write', async () => {
    let lag: ReturnType<typeof lagging> | undefined;
    const pods = await podCacher({
      wrap: (s) => {
        lag = lagging(s);
        return lag.store;
      },
    });
    try {
      const created = await pods.cacher.create('/pods/ns/b', pod('ns', 'b'));
      await caughtUp(pods.cacher, rvOf(created));
      lag?.hold();
      const written = await pods.store.guaranteedUpdate('/pods/ns/b', {
        tryUpdate: (obj) => labelled(obj, 'written'),
      });
      const seen: (string | undefined)[] = [];
      const same = await pods.cacher.guaranteedUpdate('/pods/ns/b', {
        tryUpdate: (obj) => {
          seen.push(obj?.metadata.labels?.['step']);
          if (obj === null) throw new Error('no object');
          return obj;
        },
      });
      assert.deepEqual(seen, [undefined, 'written']);
      assert.equal(same.metadata.resourceVersion, written.metadata.resourceVersion);
    } finally {
      lag?.release();
      await pods.close();
    }
  });
});
