// Readiness and relisting: before its first list the cache answers what storage can answer and
// refuses the rest with 429; a broken storage watch ends every watcher and the cache relists.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { StatusError } from '../../machinery/errors/index.js';
import { watchTooOld } from '../api-errors.js';
import { pod, type TestObject } from '../testing/test-object.js';
import { EventReader } from '../testing/watch-reader.js';
import { listRoute, type ListRoute } from './delegator.js';
import { Ready, retryAfterForUnreadyCache } from './ready.js';
import { FlakyStorage } from './testing/flaky-storage.js';
import { podCacher, type PodCacher } from './testing/pods.js';

let open: PodCacher[] = [];
afterEach(async () => {
  await Promise.all(open.map((p) => p.close()));
  open = [];
});

async function flakyPods(
  holdFirstList: boolean,
  progressNotifyIntervalMs = 100,
): Promise<{ pods: PodCacher; flaky: FlakyStorage<TestObject> }> {
  const made: FlakyStorage<TestObject>[] = [];
  const pods = await podCacher({
    progressNotifyIntervalMs,
    waitReady: !holdFirstList,
    wrap: (store) => {
      const flaky = new FlakyStorage(store);
      if (holdFirstList) flaky.holdNextList();
      made.push(flaky);
      return flaky;
    },
  });
  open.push(pods);
  const flaky = made[0];
  assert.ok(flaky !== undefined);
  return { pods, flaky };
}

async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 3000;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

const initializing = { code: 429, reason: 'TooManyRequests', message: 'storage is (re)initializing' };

function assertStatus(err: unknown, want: { code: number; reason: string; message: string }): boolean {
  assert.ok(err instanceof StatusError, String(err));
  assert.equal(err.status.code, want.code);
  assert.equal(err.status.reason, want.reason);
  assert.equal(err.status.message, want.message);
  return true;
}

describe('before the first list', () => {
  it('reads storage can answer go there; the rest get 429 "storage is (re)initializing"', async () => {
    const { pods, flaky } = await flakyPods(true);
    await pods.store.create('/pods/ns/a', pod('ns', 'a'));
    await assert.rejects(pods.cacher.readinessCheck(), { message: 'storage not ready' });
    assert.equal((await pods.cacher.get('/pods/ns/a', { resourceVersion: '0' }))?.metadata.name, 'a');
    assert.equal((await pods.cacher.getList('/pods', { recursive: true, limit: 5 })).items.length, 1);
    await assert.rejects(pods.cacher.getList('/pods', { recursive: true }), (err) =>
      assertStatus(err, initializing),
    );
    await assert.rejects(pods.cacher.watch('/pods', { recursive: true }), (err: StatusError) => {
      assertStatus(err, initializing);
      assert.deepEqual(err.status.details, { retryAfterSeconds: 1 });
      return true;
    });
    flaky.releaseList();
    await pods.cacher.whenReady();
    await pods.cacher.readinessCheck();
    assert.equal((await pods.cacher.getList('/pods', { recursive: true })).items.length, 1);
  });

  it('the Retry-After grows with the downtime, between 1 and 30 s (kube formula)', () => {
    assert.equal(retryAfterForUnreadyCache(0), 1);
    assert.equal(retryAfterForUnreadyCache(30_000), 6);
    assert.equal(retryAfterForUnreadyCache(3_600_000), 30);
    let now = 0;
    const ready = new Ready(() => now);
    now = 60_000;
    assert.equal(ready.check()?.status.details?.retryAfterSeconds, 30);
  });
});

describe('relisting', () => {
  it('a broken storage watch ends every watcher; the cache relists and serves the new state', async () => {
    const { pods, flaky } = await flakyPods(false);
    const rv = String(pods.cacher.stats().resourceVersion);
    const reader = new EventReader(
      await pods.cacher.watch('/pods', { recursive: true, resourceVersion: rv }),
      3000,
    );
    const listsBefore = flaky.lists;
    flaky.breakWatches(watchTooOld().status);
    await reader.expectEnd('the watcher to be ended by the relist');
    await until('the cache to go unready', () => !pods.cacher.stats().ready);
    await assert.rejects(pods.cacher.watch('/pods', { recursive: true }), (err) =>
      assertStatus(err, initializing),
    );
    const during = await pods.store.create('/pods/ns/during', pod('ns', 'during'));
    await pods.cacher.whenReady();
    assert.ok(flaky.lists > listsBefore);
    assert.equal(pods.cacher.stats().relists, 1);
    const list = await pods.cacher.getList('/pods', { recursive: true, resourceVersion: '0' });
    assert.deepEqual(list.items, [during]);
  });
});

describe('consistent reads', () => {
  it('fall back to storage when the cache cannot catch up in time', async () => {
    const { pods, flaky } = await flakyPods(false, 60_000);
    flaky.ignoreProgressRequests = true;
    const a = await pods.cacher.create('/pods/ns/a', pod('ns', 'a'));
    // A write outside /pods moves storage on; with no progress report the cache cannot know.
    await pods.store.create('/configmaps/ns/c', pod('ns', 'c'));
    const current = await pods.store.currentResourceVersion();
    const started = Date.now();
    const list = await pods.cacher.getList('/pods', { recursive: true });
    assert.ok(Date.now() - started >= 900, 'it waited for the cache first');
    assert.deepEqual(list.items, [a]);
    assert.equal(list.metadata.resourceVersion, String(current));
  });
});

describe('which lists the cache serves', () => {
  it('follows kube delegator without snapshots', () => {
    const cases: [Parameters<typeof listRoute>[0], ListRoute][] = [
      [{}, 'consistent'],
      [{ limit: 5 }, 'consistent'],
      [{ resourceVersion: '0' }, 'cache'],
      [{ resourceVersion: '0', limit: 5 }, 'cache'],
      [{ resourceVersion: '7' }, 'cache'],
      [{ resourceVersion: '7', limit: 5 }, 'storage'],
      [{ resourceVersion: '7', resourceVersionMatch: 'NotOlderThan', limit: 5 }, 'cache'],
      [{ resourceVersion: '7', resourceVersionMatch: 'Exact' }, 'storage'],
      [{ continue: 'x', limit: 5 }, 'storage'],
    ];
    for (const [opts, want] of cases) assert.equal(listRoute(opts), want, JSON.stringify(opts));
  });
});
