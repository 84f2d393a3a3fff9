// Seeds: a snapshot keeps what the watch caches held, and a fork's cache starts from it (the same
// elements, not decoded again), then catches up with its own store through the watch, and from then
// on goes its own way: writes to the original are not seen by the fork, nor the other way round.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { SqliteBackend } from '../backends/sqlite/sqlite-backend.js';
import { KvStore } from '../kv-store/kv-store.js';
import type { KeyValue } from '../kv/backend.js';
import { pod, type TestObject } from '../testing/test-object.js';
import { EventReader } from '../testing/watch-reader.js';
import { advanceUnchanged, CacheSeeds, type CacheSeed, type CacheSeedMap } from './cache-seeds.js';
import type { Cacher } from './cacher.js';
import { KeyedStore } from './keyed-store.js';
import type { StoreElement } from './watch-cache-event.js';
import { caughtUp, newPod, podsCacherOver, podsResource, rvOf } from './testing/pods.js';

const keyPrefix = '/registry/pods/';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers.length = 0;
});

/** A store over an in-memory backend (from an image when given) and a cacher attached to `seeds`. */
async function server(
  seeds: CacheSeeds,
  image?: Buffer,
): Promise<{ backend: SqliteBackend; store: KvStore<TestObject>; cacher: Cacher<TestObject> }> {
  const backend = await SqliteBackend.open({
    path: ':memory:',
    progressNotifyIntervalMs: 100,
    compaction: { intervalMs: 0, minRetainRevisions: 0, minRetainMs: 0 },
    ...(image === undefined ? {} : { image }),
  });
  const store = new KvStore<TestObject>({ backend, groupResource: podsResource, newFunc: newPod });
  const cacher = podsCacherOver(store, { seeds, backendKeyPrefix: keyPrefix });
  closers.push(async () => {
    await cacher.stop();
    await backend.close();
  });
  await cacher.whenReady();
  return { backend, store, cacher };
}

async function names(cacher: Cacher<TestObject>): Promise<string[]> {
  const list = await cacher.getList('/pods/', { recursive: true, resourceVersion: '' });
  return list.items.map((p) => `${p.metadata.name ?? ''}@${p.metadata.resourceVersion ?? ''}`);
}

describe('cache seeds', () => {
  it('a fork starts from the original cache elements, catches up, and the two go their own ways', async () => {
    const originSeeds = new CacheSeeds();
    const origin = await server(originSeeds);
    let last = 0;
    for (const name of ['a', 'b', 'c'])
      last = rvOf(await origin.store.create(`/pods/ns/${name}`, pod('ns', name)));
    await caughtUp(origin.cacher, last);
    // The caches taken before a write the image holds (as a cache that has not applied the last
    // writes yet when a snapshot is taken): the fork catches up on it.
    const captured = originSeeds.capture();
    const late = rvOf(await origin.store.create('/pods/ns/late', pod('ns', 'late')));
    const image = origin.backend.serialize();
    const seed = captured.get(`pods /pods`);
    assert.ok(seed !== undefined, 'the cache was captured');
    assert.ok(seed.resourceVersion < late, 'the cache had not seen the late write');

    const fork = await server(new CacheSeeds(captured), image);
    // The very elements: a read-only get hands out one shared decode per element.
    const shared = await fork.cacher.get('/pods/ns/a', { readOnly: true, resourceVersion: '0' });
    assert.equal(shared, await origin.cacher.get('/pods/ns/a', { readOnly: true, resourceVersion: '0' }));
    const atSnapshot = ['a@', 'b@', 'c@', 'late@'].map((n, i) => n + String(i < 3 ? last - 2 + i : late));
    assert.deepEqual(await names(fork.cacher), atSnapshot);

    // A watch on the fork from the seed's revision sees what happened after it, in the fork only.
    let changed: TestObject;
    const reader = new EventReader(
      await fork.cacher.watch('/pods/', { recursive: true, resourceVersion: String(seed.resourceVersion) }),
      3000,
    );
    try {
      const lateEvent = await reader.nextChange('the late create');
      assert.equal(lateEvent.type, 'ADDED');
      assert.equal(lateEvent.object.metadata.name, 'late');
      await origin.store.delete('/pods/ns/b');
      changed = await fork.store.guaranteedUpdate('/pods/ns/a', {
        tryUpdate: (cur) => ({ ...cur!, spec: { nodeName: 'fork-node' } }),
      });
      assert.ok(rvOf(changed) > late, 'the fork writes after the snapshot revision');
      const modified = await reader.nextChange('the fork update');
      assert.equal(modified.type, 'MODIFIED');
      assert.equal(modified.object.metadata.name, 'a');
      assert.equal(modified.object.spec?.nodeName, 'fork-node');
      assert.equal(modified.object.metadata.resourceVersion, changed.metadata.resourceVersion);
    } finally {
      reader.stop();
    }
    assert.deepEqual(await names(fork.cacher), [`a@${rvOf(changed)}`, ...atSnapshot.slice(1)]);
    assert.deepEqual(await names(origin.cacher), [atSnapshot[0], atSnapshot[2], atSnapshot[3]]);
    const originA = await origin.cacher.get('/pods/ns/a', { resourceVersion: '' });
    assert.equal(originA?.spec?.nodeName, undefined);
  });
});

function podElement(key: string): StoreElement {
  return {
    key,
    resourceVersion: 1,
    served: { json: Buffer.from('{}'), rvStart: 0, rvEnd: 0 },
    attrs: { labels: {}, fields: {} },
    indexValues: {},
  };
}

describe('advanceUnchanged', () => {
  const kv = (key: string, modRevision: number): KeyValue => ({
    key,
    value: Buffer.alloc(0),
    createRevision: modRevision,
    modRevision,
  });
  /** A seed holding `count` objects (only how many matters here). */
  const seedOf = (resourceVersion: number, prefix: string, count: number): CacheSeed => {
    const store = new KeyedStore(new Map());
    for (let i = 0; i < count; i++) store.put(podElement(`${prefix}${i}`));
    return { resourceVersion, keyPrefix: prefix, store: store.state() };
  };
  const kvs = [kv('/r/a/1', 3), kv('/r/a/2', 4), kv('/r/b/1', 9), kv('/r/c/1', 2)];

  it('moves a seed to the store revision when nothing under its prefix changed after it', () => {
    const seeds = new Map([
      ['a', seedOf(5, '/r/a/', 2)],
      ['c', seedOf(2, '/r/c/', 1)],
      ['empty', seedOf(1, '/r/e/', 0)],
    ]);
    advanceUnchanged(seeds, { kvs, revision: 10 });
    assert.deepEqual(
      [...seeds].map(([name, s]) => [name, s.resourceVersion]),
      [
        ['a', 10],
        ['c', 10],
        ['empty', 10],
      ],
    );
  });

  it('keeps a seed whose prefix had a later write or a deletion', () => {
    const seeds: Map<string, CacheSeed> = new Map([
      ['written', seedOf(5, '/r/b/', 1)],
      ['deleted', seedOf(5, '/r/a/', 3)],
    ]);
    advanceUnchanged(seeds, { kvs, revision: 10 });
    const after: CacheSeedMap = seeds;
    assert.equal(after.get('written')?.resourceVersion, 5);
    assert.equal(after.get('deleted')?.resourceVersion, 5);
  });
});
