// The queue's workqueue_* metrics, counted when client-go counts them: an add that makes a key dirty
// (a duplicate does not), a get, a done, every delayed or rate-limited add as a retry; work in
// progress read on a clock the test moves.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VirtualClock } from '../../../machinery/time/clock.js';
import { WorkqueueMetrics, type WorkqueueReading } from '../../../server/metrics/workqueue-metrics.js';
import { RateLimitingQueue } from './rate-limiting-queue.js';

function setup(name = 'deployment'): {
  q: RateLimitingQueue;
  metrics: WorkqueueMetrics;
  tick: (ms: number) => void;
  reading: () => WorkqueueReading;
} {
  let now = 1_000;
  const metrics = new WorkqueueMetrics({ now: () => now });
  const q = new RateLimitingQueue({ name, metrics, backoffClock: new VirtualClock(0) });
  return {
    q,
    metrics,
    tick: (ms) => {
      now += ms;
    },
    reading: () => {
      const r = metrics.read().find((x) => x.series.name === name);
      assert.ok(r, `a series for ${name}`);
      return r;
    },
  };
}

describe('RateLimitingQueue metrics', () => {
  it('counts adds and depth as client-go does: a duplicate neither adds nor deepens', async () => {
    const { q, reading } = setup();
    q.add('a');
    q.add('b');
    q.add('a');
    assert.equal(reading().series.adds, 2);
    assert.equal(reading().series.depth, 2);
    const key = await q.get();
    assert.equal(reading().series.depth, 1);
    // Added again while processed: counted now, not again when done queues it.
    q.add(key ?? '');
    assert.equal(reading().series.adds, 3);
    assert.equal(reading().series.depth, 2);
    q.done(key ?? '');
    assert.equal(reading().series.adds, 3);
    assert.equal(reading().series.depth, 2);
    q.close();
    assert.equal(reading().series.depth, 0, 'the keys a closed queue drops leave the depth');
  });

  it('counts a key handed straight to a waiting worker as added and taken', async () => {
    const { q, reading, tick } = setup();
    const next = q.get();
    tick(5);
    q.add('a');
    assert.equal(await next, 'a');
    const r = reading();
    assert.equal(r.series.adds, 1);
    assert.equal(r.series.depth, 0);
    assert.equal(r.series.queueDuration.count, 1);
    assert.equal(r.series.queueDuration.sum, 0);
    q.close();
  });

  it('observes how long a key waited and how long it was worked on, from its first add', async () => {
    const { q, reading, tick } = setup();
    q.add('a');
    tick(20);
    q.add('a');
    tick(30);
    const key = (await q.get()) ?? '';
    tick(2_000);
    q.done(key);
    const { queueDuration, workDuration } = reading().series;
    assert.equal(queueDuration.count, 1);
    assert.equal(queueDuration.sum, 0.05);
    // 0.05 s: past 0.01, within 0.1 (the eighth bound).
    assert.equal(queueDuration.buckets[7], 1);
    assert.equal(workDuration.count, 1);
    assert.equal(workDuration.sum, 2);
    // 2 s: past 1, within 10 (the last bound).
    assert.equal(workDuration.buckets[9], 1);
    q.close();
  });

  it('counts every delayed and rate-limited add as a retry', () => {
    const { q, reading } = setup();
    q.addRateLimited('a');
    q.addRateLimited('a');
    q.addAfter('b', 0);
    q.addAfter('c', 10);
    assert.equal(reading().series.retries, 4);
    q.close();
    q.addAfter('d', 10);
    assert.equal(reading().series.retries, 4, 'not once shut down');
  });

  it('reports the work in progress as of each read: its sum and its oldest', async () => {
    const { q, reading, tick } = setup();
    q.add('a');
    q.add('b');
    const a = (await q.get()) ?? '';
    tick(3_000);
    const b = (await q.get()) ?? '';
    tick(1_000);
    assert.equal(reading().unfinishedSeconds, 5);
    assert.equal(reading().longestRunningSeconds, 4);
    tick(500);
    assert.equal(reading().unfinishedSeconds, 6);
    q.done(a);
    assert.equal(reading().unfinishedSeconds, 1.5);
    assert.equal(reading().longestRunningSeconds, 1.5);
    q.done(b);
    assert.equal(reading().unfinishedSeconds, 0);
    assert.equal(reading().longestRunningSeconds, 0);
    q.close();
  });

  it('gives an unnamed queue, or one without a provider, no series', () => {
    const metrics = new WorkqueueMetrics();
    const unnamed = new RateLimitingQueue({ metrics });
    unnamed.add('a');
    assert.deepEqual(metrics.read(), []);
    const plain = new RateLimitingQueue({ name: 'deployment' });
    plain.add('a');
    unnamed.close();
    plain.close();
  });

  it('adds the queues of one name into one series (a controller run again)', async () => {
    const { q, metrics, reading } = setup('namespace');
    const again = new RateLimitingQueue({ name: 'namespace', metrics });
    q.add('a');
    again.add('a');
    assert.equal(reading().series.adds, 2);
    await again.get();
    assert.equal(reading().series.depth, 1);
    q.close();
    again.close();
  });
});
