// Watches served from the cache: slow watchers, the window's 410, bookmarks and initial events.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { pod, type TestObject } from '../testing/test-object.js';
import { EventReader, plainEvent, type TestEvent } from '../testing/watch-reader.js';
import { podCacher, testTiming, type PodCacher, type PodCacherOptions } from './testing/pods.js';

let open: PodCacher[] = [];
async function setup(opts?: PodCacherOptions): Promise<PodCacher> {
  const pods = await podCacher(opts);
  open.push(pods);
  return pods;
}
afterEach(async () => {
  await Promise.all(open.map((p) => p.close()));
  open = [];
});

const rvOf = (obj: { metadata?: { resourceVersion?: string } }): number =>
  Number(obj.metadata?.resourceVersion);

async function seed(pods: PodCacher, count: number, prefix = 'p'): Promise<TestObject[]> {
  const out: TestObject[] = [];
  for (let i = 0; i < count; i++) {
    const name = `${prefix}${String(i).padStart(3, '0')}`;
    out.push(await pods.cacher.create(`/pods/ns/${name}`, pod('ns', name)));
  }
  return out;
}

/** Reads events until the watch ends; fails if it does not end in time. */
async function drain(reader: EventReader, timeoutMs = 3000): Promise<TestEvent[]> {
  const out: TestEvent[] = [];
  for (;;) {
    const step = await reader.step(timeoutMs);
    assert.ok(typeof step === 'object', 'the watch should end');
    if (step.done === true) return out;
    out.push(step.value);
  }
}

describe('slow watchers', () => {
  it('a watcher that stops reading is ended; one that reads gets every event', async () => {
    const pods = await setup();
    const start = String(pods.cacher.stats().resourceVersion);
    const slow = new EventReader(
      await pods.cacher.watch('/pods', { recursive: true, resourceVersion: start }),
      3000,
    );
    const fast = new EventReader(
      await pods.cacher.watch('/pods', { recursive: true, resourceVersion: start }),
      3000,
    );
    const reading = fast.changes(300, 'fast watcher events');
    const written = await seed(pods, 300);
    const got = await reading;
    assert.deepEqual(
      got.map((e) => e.object),
      written,
    );
    const queued = await drain(slow);
    assert.ok(
      queued.length > 0 && queued.length < 300,
      `the slow watcher got ${queued.length} events, then ended`,
    );
    assert.deepEqual(
      queued.map((e) => e.object),
      written.slice(0, queued.length),
      'what it got is a prefix, in order',
    );
    const stats = pods.cacher.stats();
    assert.equal(stats.terminated, 1);
    assert.equal(stats.watchers, 1);
  });

  it('a reader is not ended for a backlog dispatched faster than it could read', async () => {
    const pods = await setup();
    const start = String(pods.cacher.stats().resourceVersion);
    const slow = await pods.cacher.watch('/pods', { recursive: true, resourceVersion: start });
    const fast = new EventReader(
      await pods.cacher.watch('/pods', { recursive: true, resourceVersion: start }),
      3000,
    );
    const reading = fast.changes(1000, 'fast watcher events');
    // Concurrent writes commit in batches: the cache receives hundreds of events at once.
    await Promise.all(
      Array.from({ length: 1000 }, (_, i) => pods.cacher.create(`/pods/ns/b${i}`, pod('ns', `b${i}`))),
    );
    assert.equal((await reading).length, 1000);
    assert.equal(pods.cacher.stats().terminated, 1, 'only the watcher that never reads');
    slow.stop();
  });
});

describe('the event window', () => {
  it('a watch from before the window gets one 410 "too old resource version" ERROR', async () => {
    const pods = await setup({ cacheSize: 10, maxCacheSize: 10 });
    const written = await seed(pods, 30);
    await pods.cacher.whenIdle();
    assert.equal(pods.cacher.stats().windowCapacity, 10);
    const first = rvOf(written[0]!);
    const oldestKept = rvOf(written[20]!);
    const reader = new EventReader(
      await pods.cacher.watch('/pods', { recursive: true, resourceVersion: String(first) }),
      3000,
    );
    const events = await drain(reader);
    assert.deepEqual(events, [
      {
        type: 'ERROR',
        object: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: `too old resource version: ${first} (${oldestKept - 1})`,
          reason: 'Expired',
          code: 410,
        },
      },
    ]);
    // The oldest event still held can be replayed from the one before it.
    const ok = new EventReader(
      await pods.cacher.watch('/pods', { recursive: true, resourceVersion: String(oldestKept - 1) }),
      3000,
    );
    assert.deepEqual(
      (await ok.changes(10)).map((e) => e.object),
      written.slice(20),
    );
    ok.stop();
  });

  it('the window grows while its events are fresh', async () => {
    const pods = await setup({ cacheSize: 10 });
    await seed(pods, 50);
    await pods.cacher.whenIdle();
    assert.equal(pods.cacher.stats().windowCapacity, 80);
  });
});

describe('bookmarks', () => {
  it('progressNotify watchers get periodic BOOKMARKs holding only the resourceVersion', async () => {
    const pods = await setup();
    const start = String(pods.cacher.stats().resourceVersion);
    const reader = new EventReader(
      await pods.cacher.watch('/pods', { recursive: true, resourceVersion: start, progressNotify: true }),
      3000,
    );
    const [a] = await seed(pods, 1);
    assert.equal((await reader.next('the create')).type, 'ADDED');
    const bookmark = await reader.next('a bookmark');
    assert.deepEqual(bookmark, {
      type: 'BOOKMARK',
      object: { apiVersion: 'v1', kind: 'Pod', metadata: { resourceVersion: String(rvOf(a!)) } },
    });
    assert.equal((await reader.next('another bookmark')).type, 'BOOKMARK');
    reader.stop();
  });

  it('a watch without progressNotify gets none', async () => {
    const pods = await setup();
    const reader = new EventReader(
      await pods.cacher.watch('/pods', { recursive: true, resourceVersion: '0' }),
      600,
    );
    await seed(pods, 1);
    assert.equal((await reader.next()).type, 'ADDED');
    assert.equal(typeof (await reader.step(600)), 'symbol', 'nothing else comes');
    reader.stop();
  });

  it('one goes out shortly before the deadline even when the period is long', async () => {
    const pods = await setup({ timing: { ...testTiming, bookmarkFrequencyMs: 60_000 } });
    const deadline = Date.now() + 2600;
    const start = String(pods.cacher.stats().resourceVersion);
    const opts = { recursive: true, resourceVersion: start, progressNotify: true, deadline };
    const reader = new EventReader(await pods.cacher.watch('/pods', opts), 2000);
    await seed(pods, 1);
    assert.equal((await reader.next('the create')).type, 'ADDED');
    assert.equal((await reader.next('the pre-timeout bookmark')).type, 'BOOKMARK');
    assert.ok(Date.now() < deadline - 1000, 'it came about 2 s before the deadline');
    reader.stop();
  });
});

describe('initial events', () => {
  it('sendInitialEvents: current objects as ADDED in key order, the marked BOOKMARK, then changes', async () => {
    const pods = await setup();
    const written = await seed(pods, 5);
    const opts = { recursive: true, sendInitialEvents: true, progressNotify: true };
    const reader = new EventReader(await pods.cacher.watch('/pods/ns', opts), 3000);
    const initial = [];
    for (let i = 0; i < 5; i++) initial.push(plainEvent(await reader.next()));
    assert.deepEqual(
      initial,
      written.map((object) => ({ type: 'ADDED', object })),
    );
    const end = await reader.next('the initial-events-end bookmark');
    const endRv = rvOf(written.at(-1)!);
    assert.deepEqual(end.object, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { resourceVersion: String(endRv), annotations: { 'k8s.io/initial-events-end': 'true' } },
    });
    const [later] = await seed(pods, 1, 'later');
    assert.deepEqual(plainEvent(await reader.nextChange()), { type: 'ADDED', object: later });
    reader.stop();
  });

  it('sendInitialEvents without a resourceVersion includes writes made straight to storage', async () => {
    const pods = await setup({ progressNotifyIntervalMs: 5000 });
    const direct = await pods.store.create('/pods/ns/direct', pod('ns', 'direct'));
    const opts = { recursive: true, sendInitialEvents: true, progressNotify: true };
    const reader = new EventReader(await pods.cacher.watch('/pods', opts), 3000);
    assert.deepEqual(plainEvent(await reader.next()), { type: 'ADDED', object: direct });
    assert.equal((await reader.next()).type, 'BOOKMARK');
    reader.stop();
  });

  it('a consistent read after writes elsewhere catches up by asking storage for progress', async () => {
    const pods = await setup({ progressNotifyIntervalMs: 60_000 });
    await seed(pods, 2);
    // Writes outside /pods move storage's revision without any event for the cache.
    for (let i = 0; i < 3; i++) await pods.store.create(`/configmaps/ns/c${i}`, pod('ns', `c${i}`));
    const current = await pods.store.currentResourceVersion();
    const started = Date.now();
    const list = await pods.cacher.getList('/pods', { recursive: true });
    assert.ok(Date.now() - started < 500, 'served without waiting out the fresh timeout');
    assert.ok(rvOf(list) >= current, `list at ${rvOf(list)} is at least ${current}`);
    assert.equal(list.items.length, 2);
  });
});
