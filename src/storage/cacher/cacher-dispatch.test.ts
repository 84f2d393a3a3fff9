// Dispatch through the watcher index: an event is offered only to watchers that can want it, every
// watcher of a change gets the same (frozen) event object, with the JSON to send attached.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testPredicate } from '../testing/predicate.js';
import { pod, type TestObject } from '../testing/test-object.js';
import { EventReader, plainEvent } from '../testing/watch-reader.js';
import { servedJSONOf } from '../served-json.js';
import { podCacher, type PodCacher } from './testing/pods.js';

let pods: PodCacher;
before(async () => {
  pods = await podCacher();
});
after(() => pods.close());

const onNode = (node: string) => testPredicate({ fields: { 'spec.nodeName': node } });

async function offersFor(write: () => Promise<unknown>): Promise<number> {
  await pods.cacher.whenIdle();
  const before = pods.cacher.stats().offered;
  await write();
  // The write's event reaches the cache through storage's watch; wait until it is dispatched.
  const rv = await pods.store.currentResourceVersion();
  await pods.cacher.get('/pods/none/none', { resourceVersion: String(rv), ignoreNotFound: true });
  await pods.cacher.whenIdle();
  return pods.cacher.stats().offered - before;
}

describe('the watcher index', () => {
  it('a pod on one node is offered to that node watcher only, among 1000', async () => {
    const rv = String(pods.cacher.stats().resourceVersion);
    const readers = [];
    for (let i = 0; i < 1000; i++) {
      const w = await pods.cacher.watch('/pods', {
        recursive: true,
        resourceVersion: rv,
        predicate: onNode(`node-${i}`),
      });
      readers.push(new EventReader(w, 2000));
    }
    const got: { created?: TestObject; moved?: TestObject } = {};
    const offers = await offersFor(async () => {
      got.created = await pods.cacher.create('/pods/a/p1', pod('a', 'p1', { nodeName: 'node-7' }));
    });
    assert.equal(offers, 1);
    assert.deepEqual(plainEvent(await readers[7]!.next()), { type: 'ADDED', object: got.created });
    // Moving the pod offers it to the node it left and the node it joined.
    const moveOffers = await offersFor(async () => {
      got.moved = await pods.cacher.guaranteedUpdate('/pods/a/p1', {
        tryUpdate: (cur) => ({ ...cur!, spec: { nodeName: 'node-8' } }),
      });
    });
    assert.equal(moveOffers, 2);
    const left = await readers[7]!.next();
    const leftObject = left.object as TestObject;
    assert.equal(left.type, 'DELETED');
    assert.equal(leftObject.metadata.resourceVersion, got.moved?.metadata.resourceVersion);
    assert.equal(leftObject.spec?.nodeName, 'node-7');
    assert.deepEqual(plainEvent(await readers[8]!.next()), { type: 'ADDED', object: got.moved });
    for (const r of readers) r.stop();
    assert.equal(pods.cacher.stats().watchers, 0);
  });
});

describe('scoped watchers and indexed lists', () => {
  it('namespace and name scoped watchers are offered only their events', async () => {
    const rv = String(pods.cacher.stats().resourceVersion);
    const byNs = [];
    for (let i = 0; i < 100; i++) {
      byNs.push(
        new EventReader(
          await pods.cacher.watch(`/pods/ns-${i}`, { recursive: true, resourceVersion: rv }),
          2000,
        ),
      );
    }
    const named = new EventReader(
      await pods.cacher.watch('/pods/ns-5', {
        recursive: true,
        resourceVersion: rv,
        predicate: testPredicate({ fields: { 'metadata.name': 'x' } }),
      }),
      2000,
    );
    assert.equal(await offersFor(() => pods.cacher.create('/pods/ns-5/y', pod('ns-5', 'y'))), 1);
    assert.equal(await offersFor(() => pods.cacher.create('/pods/ns-5/x', pod('ns-5', 'x'))), 2);
    assert.equal((await byNs[5]!.changes(2)).length, 2);
    assert.equal(((await named.next()).object as TestObject).metadata.name, 'x');
    for (const r of [...byNs, named]) r.stop();
  });

  it('lists narrow by the index and still filter', async () => {
    for (let i = 0; i < 6; i++) {
      await pods.cacher.create(
        `/pods/idx/p${i}`,
        pod('idx', `p${i}`, { nodeName: `n${i % 2}`, labels: { i: String(i) } }),
      );
    }
    const list = await pods.cacher.getList('/pods/idx', {
      recursive: true,
      predicate: testPredicate({ fields: { 'spec.nodeName': 'n1' } }),
    });
    assert.deepEqual(
      list.items.map((o) => o.metadata.name),
      ['p1', 'p3', 'p5'],
    );
    const both = testPredicate({ fields: { 'spec.nodeName': 'n1' }, labels: { i: '3' } });
    assert.deepEqual(
      (await pods.cacher.getList('/pods', { recursive: true, predicate: both })).items.map(
        (o) => o.metadata.name,
      ),
      ['p3'],
    );
  });
});

describe('shared events', () => {
  it('every watcher of a change gets the same frozen event, with the JSON to send attached', async () => {
    const rv = String(pods.cacher.stats().resourceVersion);
    const readers = await Promise.all(
      [0, 1, 2].map(
        async () =>
          new EventReader(
            await pods.cacher.watch('/pods/shared', { recursive: true, resourceVersion: rv }),
            2000,
          ),
      ),
    );
    await pods.cacher.create('/pods/shared/a', pod('shared', 'a', { labels: { x: 'y' } }));
    const events = await Promise.all(readers.map((r) => r.next()));
    assert.ok(
      events.every((e) => e === events[0]),
      'one event object for all watchers',
    );
    const json = servedJSONOf(events[0]!);
    assert.ok(json !== undefined);
    const obj = events[0]!.object as TestObject;
    assert.ok(Object.isFrozen(obj) && Object.isFrozen(obj.metadata.labels));
    assert.deepEqual(JSON.parse(json.toString()), obj);
    for (const r of readers) r.stop();
  });

  it("objects read from the cache are the caller's: changing one leaves the cache alone", async () => {
    const created = await pods.cacher.create('/pods/own/a', pod('own', 'a'));
    const at = { resourceVersion: created.metadata.resourceVersion ?? '' };
    const got = await pods.cacher.get('/pods/own/a', at);
    assert.ok(got !== null);
    got.metadata.labels = { changed: 'yes' };
    const again = await pods.cacher.get('/pods/own/a', at);
    assert.deepEqual(again, created);
    const encoded = await pods.cacher.getEncoded('/pods/own/a', at);
    assert.deepEqual(JSON.parse(String(encoded)), created);
  });

  it('a cache-only read answers with the cached bytes, and storage never reads for one', async () => {
    const created = await pods.cacher.create('/pods/cached/a', pod('cached', 'a'));
    await pods.cacher.get('/pods/cached/a', { resourceVersion: created.metadata.resourceVersion ?? '' });
    const cachedOnly = { resourceVersion: '0', cachedOnly: true };
    const cached = await pods.cacher.getEncoded('/pods/cached/a', cachedOnly);
    assert.deepEqual(cached, await pods.cacher.getEncoded('/pods/cached/a', { resourceVersion: '0' }));
    assert.equal(await pods.store.getEncoded('/pods/cached/a', cachedOnly), null);
    assert.ok((await pods.store.getEncoded('/pods/cached/a')) !== null);
  });
});
