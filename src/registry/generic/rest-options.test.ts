import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { GroupResource } from '../../machinery/schema/group-resource.js';
import type { CreateRawStorage, StorageConfigForResource } from '../../storage/backend-factory/config.js';
import { KvStore } from '../../storage/kv-store/kv-store.js';
import { startObservingCount } from './count-observer.js';
import { StorageFactoryRestOptionsFactory, type StorageFactory } from './rest-options.js';
import { memoryRESTOptions, type MemoryRESTOptions } from './testing/memory-rest-options.js';
import { newWidgetStore, testContext, widget } from './testing/widgets.js';
import { parseWatchCacheSizes } from './watch-cache-sizes.js';

const factory: StorageFactory = {
  newConfig(resource: GroupResource): StorageConfigForResource {
    if (resource.resource === 'nowhere') throw new Error('no storage for you');
    return { type: 'memory', prefix: '/registry', transport: {}, groupResource: resource };
  },
  resourcePrefix: (resource) => (resource.resource === 'nodes' ? 'minions' : resource.resource),
};

describe('StorageFactoryRestOptionsFactory', () => {
  let env: MemoryRESTOptions;
  before(async () => {
    env = await memoryRESTOptions();
  });
  after(() => env.close());

  it('fills RESTOptions from the factory and the etcd flags', () => {
    const getter = new StorageFactoryRestOptionsFactory({
      options: { deleteCollectionWorkers: 4, enableGarbageCollection: false },
      storageFactory: factory,
      createRawStorage: env.createRawStorage,
    });
    const opts = getter.getRESTOptions({ group: '', resource: 'nodes' });
    assert.equal(opts.resourcePrefix, 'minions');
    assert.equal(opts.deleteCollectionWorkers, 4);
    assert.equal(opts.enableGarbageCollection, false);
    assert.equal(opts.countMetricPollPeriodMs, 60_000);
    assert.deepEqual(opts.storageConfig.groupResource, { group: '', resource: 'nodes' });
  });

  it('wraps a missing destination with kube text', () => {
    const getter = new StorageFactoryRestOptionsFactory({
      options: {},
      storageFactory: factory,
      createRawStorage: env.createRawStorage,
    });
    assert.throws(() => getter.getRESTOptions({ group: 'apps', resource: 'nowhere' }), {
      message: 'unable to find storage destination for nowhere.apps, due to no storage for you',
    });
  });

  it('builds working storage through its decorator, cached or not', async () => {
    for (const options of [{}, { enableWatchCache: false }, { watchCacheSizes: ['widgets.example.com#0'] }]) {
      const getter = new StorageFactoryRestOptionsFactory({
        options,
        storageFactory: factory,
        createRawStorage: env.createRawStorage,
      });
      const store = await newWidgetStore({ restOptions: getter });
      await store.create(testContext('ns'), widget(`w${JSON.stringify(options).length}`), { options: {} });
      await store.destroy();
    }
  });

  it('serves lists and watches from the watch cache, writes through to storage', async () => {
    const getter = new StorageFactoryRestOptionsFactory({
      options: { defaultWatchCacheSize: 10 },
      storageFactory: factory,
      createRawStorage: env.createRawStorage,
    });
    const store = await newWidgetStore(
      { restOptions: getter },
      { qualifiedResource: { group: 'example.com', resource: 'cached' } },
    );
    try {
      const ctx = testContext('c');
      const a = await store.create(ctx, widget('a'), { options: {} });
      await store.create(ctx, widget('b'), { options: {} });
      const listed = await store.list(ctx, { resourceVersion: a.metadata?.resourceVersion ?? '' });
      assert.deepEqual(
        listed.items.map((w) => w.metadata?.name),
        ['a', 'b'],
      );
      const w = await store.watch(ctx, { resourceVersion: listed.metadata.resourceVersion ?? '' });
      await store.delete(ctx, 'a', { options: {} });
      const ev = await w[Symbol.asyncIterator]().next();
      assert.equal(ev.done, false);
      assert.equal(ev.value.type, 'DELETED');
      w.stop();
      assert.notEqual((await env.backend.get('/registry/cached/c/b')).kv, null);
    } finally {
      await store.destroy();
    }
  });

  it(
    "reports a watch cache's failed ListAndWatch where the storage config says",
    { timeout: 10_000 },
    async () => {
      const logged: string[] = [];
      let reported: () => void = () => undefined;
      const once = new Promise<void>((resolve) => {
        reported = resolve;
      });
      const logging: StorageFactory = {
        newConfig: (resource) => ({
          ...factory.newConfig(resource),
          log: (message) => {
            logged.push(message);
            reported();
          },
        }),
        resourcePrefix: (resource) => factory.resourcePrefix(resource),
      };
      // The storage's first watch fails, as an unreachable backend's does.
      let failed = false;
      class FlakyStore extends KvStore {
        override watch(...args: Parameters<KvStore['watch']>): ReturnType<KvStore['watch']> {
          if (failed) return super.watch(...args);
          failed = true;
          return Promise.reject(new Error('backend down'));
        }
      }
      const { backend } = env;
      const createRawStorage: CreateRawStorage = (config) =>
        Promise.resolve({
          storage: new FlakyStore({
            backend,
            pathPrefix: config.prefix,
            groupResource: config.groupResource,
          }),
          destroy: () => Promise.resolve(),
        });
      const getter = new StorageFactoryRestOptionsFactory({
        options: {},
        storageFactory: logging,
        createRawStorage,
      });
      const store = await newWidgetStore(
        { restOptions: getter },
        { qualifiedResource: { group: 'example.com', resource: 'flaky' } },
      );
      try {
        await once;
        assert.deepEqual(logged, [
          'cacher (flaky.example.com): unexpected ListAndWatch error: backend down; reinitializing...',
        ]);
      } finally {
        await store.destroy();
      }
    },
  );

  // A watch from a revision compacted in storage: the cache still replays it from its window, the
  // raw store answers 410. That tells which storage --default-watch-cache-size picked.
  async function firstEventAfterCompaction(defaultWatchCacheSize: number): Promise<string> {
    const getter = new StorageFactoryRestOptionsFactory({
      options: { defaultWatchCacheSize },
      storageFactory: factory,
      createRawStorage: env.createRawStorage,
    });
    const resource = `sized${defaultWatchCacheSize}`;
    const store = await newWidgetStore(
      { restOptions: getter },
      { qualifiedResource: { group: 'example.com', resource } },
    );
    try {
      const ctx = testContext('c');
      const a = await store.create(ctx, widget('a'), { options: {} });
      await store.delete(ctx, 'a', { options: {} });
      await env.backend.compact(await env.backend.currentRevision());
      const w = await store.watch(ctx, { resourceVersion: a.metadata?.resourceVersion ?? '' });
      const ev = await w[Symbol.asyncIterator]().next();
      w.stop();
      assert.equal(ev.done, false);
      const obj = ev.value.object as { message?: string };
      return ev.value.type === 'ERROR' ? `ERROR ${obj.message ?? ''}` : ev.value.type;
    } finally {
      await store.destroy();
    }
  }

  it('--default-watch-cache-size=0 turns the cache off for resources without their own size', async () => {
    assert.equal(
      await firstEventAfterCompaction(0),
      'ERROR The resourceVersion for the provided watch is too old.',
    );
    assert.equal(await firstEventAfterCompaction(100), 'DELETED');
  });

  it('refuses malformed --watch-cache-sizes at construction', () => {
    assert.throws(
      () =>
        new StorageFactoryRestOptionsFactory({
          options: { watchCacheSizes: ['pods'] },
          storageFactory: factory,
          createRawStorage: env.createRawStorage,
        }),
      { message: 'invalid value of watch cache size: pods' },
    );
  });
});

describe('parseWatchCacheSizes', () => {
  it('parses resource[.group]#size with kube errors', () => {
    assert.deepEqual(
      [...parseWatchCacheSizes(['pods#100', 'deployments.apps#0'])],
      [
        ['pods', 100],
        ['deployments.apps', 0],
      ],
    );
    assert.throws(() => parseWatchCacheSizes(['pods#x']), {
      message: 'invalid size of watch cache size: pods#x',
    });
    assert.throws(() => parseWatchCacheSizes(['pods#-1']), {
      message: 'watch cache size cannot be negative: pods#-1',
    });
    assert.throws(() => parseWatchCacheSizes(['a#1#2']), {
      message: 'invalid value of watch cache size: a#1#2',
    });
  });
});

describe('startObservingCount', () => {
  it('reports the count at once, then deletes the series when stopped', async () => {
    const env = await memoryRESTOptions();
    try {
      const store = await newWidgetStore({ restOptions: env.getter });
      await store.create(testContext('a'), widget('x'), { options: {} });
      await store.create(testContext('b'), widget('y'), { options: {} });
      const seen: [string, number][] = [];
      const deleted: string[] = [];
      let report: () => void = () => undefined;
      const reported = new Promise<void>((resolve) => (report = resolve));
      const stop = startObservingCount({
        storage: store.core.storage.storage,
        keyRoot: '/widgets',
        resource: 'widgets.example.com',
        periodMs: 60_000,
        metric: {
          set: (r, n) => {
            seen.push([r, n]);
            report();
          },
          delete: (r) => deleted.push(r),
        },
      });
      await reported;
      stop();
      assert.deepEqual(seen, [['widgets.example.com', 2]]);
      assert.deepEqual(deleted, ['widgets.example.com']);
    } finally {
      await env.close();
    }
  });
});
