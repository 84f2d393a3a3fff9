// The watch cache's parts on their own: the window's capacity rules, the sorted store, and pages
// served from the cache with continue tokens storage accepts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeContinue } from '../continue-token.js';
import { servedFromObject } from '../encoded-reads.js';
import { pod, type TestObject } from '../testing/test-object.js';
import { apiObjectVersioner } from '../versioner.js';
import { EventWindow } from './event-window.js';
import { KeyedStore } from './keyed-store.js';
import { listFromCache } from './list-from-cache.js';
import { podAttrs, podCacher } from './testing/pods.js';
import { WatchCacheEvent, type StoreElement } from './watch-cache-event.js';

function element(name: string, rv: number): StoreElement<TestObject> {
  const obj = pod('ns', name);
  obj.metadata.resourceVersion = String(rv);
  const served = servedFromObject(obj);
  return { key: `/pods/ns/${name}`, served, attrs: podAttrs(obj), resourceVersion: rv, indexValues: {} };
}

function event(rv: number, at: number): WatchCacheEvent<TestObject> {
  return new WatchCacheEvent({ type: 'ADDED', element: element(`p${rv}`, rv), prev: null, recordTime: at });
}

describe('EventWindow capacity (kube watch cache rules)', () => {
  const opts = { lowerBound: 4, upperBound: 16, freshDurationMs: 1000 };

  it('doubles when full of fresh events, up to the upper bound', () => {
    const w = new EventWindow<TestObject>(opts);
    for (let rv = 1; rv <= 40; rv++) w.push(event(rv, 0));
    assert.equal(w.capacity, 16);
    assert.equal(w.size, 16);
    assert.deepEqual(
      w.since(30).map((e) => e.resourceVersion),
      [31, 32, 33, 34, 35, 36, 37, 38, 39, 40],
    );
    assert.equal(w.evictedSinceReset, true);
  });

  it('stays put when full of old events, halves when even the newest quarter is stale', () => {
    const w = new EventWindow<TestObject>(opts);
    for (let rv = 1; rv <= 16; rv++) w.push(event(rv, 0));
    assert.equal(w.capacity, 16);
    w.push(event(17, 5000));
    assert.equal(w.capacity, 8, 'halved');
    assert.equal(w.oldest()?.resourceVersion, 10);
    assert.equal(w.evictedSinceReset, true);
  });

  it('reset empties it after a relist', () => {
    const w = new EventWindow<TestObject>(opts);
    for (let rv = 1; rv <= 3; rv++) w.push(event(rv, 0));
    w.reset();
    assert.equal(w.size, 0);
    assert.equal(w.evictedSinceReset, false);
    assert.deepEqual(w.since(0), []);
  });
});

describe('KeyedStore', () => {
  it('keeps keys sorted, ranges by prefix and counts', () => {
    const byNode = new Map([
      ['spec.nodeName', (el: StoreElement<TestObject>) => [el.attrs.fields['spec.nodeName'] ?? '']],
    ]);
    const store = new KeyedStore<TestObject>(byNode);
    for (const name of ['c', 'a', 'b', 'a-1', 'a/x']) store.put(element(name, 1));
    store.put({ ...element('zz', 2), key: '/pods/nsb/zz' });
    assert.deepEqual(
      [...store.range('/pods/ns/')].map((e) => e.key),
      ['/pods/ns/a', '/pods/ns/a-1', '/pods/ns/a/x', '/pods/ns/b', '/pods/ns/c'],
    );
    assert.deepEqual(
      [...store.range('/pods/ns/', '/pods/ns/a/x\0')].map((e) => e.key),
      ['/pods/ns/b', '/pods/ns/c'],
    );
    assert.equal(store.count('/pods/ns/'), 5);
    store.delete('/pods/ns/b');
    assert.equal(store.count('/pods/ns/'), 4);
    assert.equal(store.indexSize('spec.nodeName', ''), 5);
  });
});

describe('pages from the cache', () => {
  it('a consistent list with a limit pages from the cache, then storage carries on at its revision', async () => {
    const pods = await podCacher();
    try {
      for (const n of ['a', 'b', 'c', 'd', 'e']) await pods.cacher.create(`/pods/ns/${n}`, pod('ns', n));
      const first = await pods.cacher.getList('/pods/ns', { recursive: true, limit: 2 });
      assert.deepEqual(
        first.items.map((o) => o.metadata.name),
        ['a', 'b'],
      );
      assert.equal(first.metadata.remainingItemCount, 3);
      const token = decodeContinue(first.metadata.continue ?? '', '/pods/ns/');
      assert.equal(token.rv, Number(first.metadata.resourceVersion));
      await pods.cacher.create('/pods/ns/bb', pod('ns', 'bb'));
      const rest = await pods.cacher.getList('/pods/ns', {
        recursive: true,
        limit: 10,
        continue: first.metadata.continue ?? '',
      });
      assert.deepEqual(
        rest.items.map((o) => o.metadata.name),
        ['c', 'd', 'e'],
      );
      assert.equal(rest.metadata.resourceVersion, first.metadata.resourceVersion);
    } finally {
      await pods.close();
    }
  });

  it('a list at resourceVersion "0" ignores the limit, as kube does', () => {
    const store = new KeyedStore<TestObject>(new Map());
    for (const n of ['a', 'b', 'c']) store.put(element(n, 3));
    const ctx = { store, resourceVersion: 3, versioner: apiObjectVersioner };
    const list = listFromCache(ctx, { key: '/pods/', recursive: true }, { limit: 1, resourceVersion: '0' });
    assert.equal(list.elements.length, 3);
    assert.equal(list.metadata.continue, undefined);
  });
});
