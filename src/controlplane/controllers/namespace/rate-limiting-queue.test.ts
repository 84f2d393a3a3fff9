import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VirtualClock } from '../../../machinery/time/clock.js';
import { RateLimitingQueue } from './rate-limiting-queue.js';

describe('RateLimitingQueue', () => {
  it('hands out each key once, in order, however often it is added', async () => {
    const q = new RateLimitingQueue();
    q.add('a');
    q.add('b');
    q.add('a');
    assert.equal(q.length, 2);
    assert.equal(await q.get(), 'a');
    assert.equal(await q.get(), 'b');
    q.close();
  });

  it('never gives a key to two workers: one added while processed comes back after done', async () => {
    const q = new RateLimitingQueue();
    q.add('a');
    const key = await q.get();
    q.add('a');
    assert.equal(q.length, 0);
    const next = q.get();
    q.done(key ?? '');
    assert.equal(await next, 'a');
    q.close();
  });

  it('adds after a delay, keeping the earlier of two times', async () => {
    const clock = new VirtualClock(0);
    const q = new RateLimitingQueue({ clock });
    q.addAfter('slow', 10_000);
    q.addAfter('slow', 5);
    q.addAfter('now', 0);
    assert.equal(await q.get(), 'now');
    await clock.advance(4);
    assert.equal(q.length, 0);
    await clock.advance(1);
    assert.equal(await q.get(), 'slow');
    assert.equal(clock.pendingTimers, 0, 'the later time was dropped');
    q.close();
  });

  it('backs off per key exponentially up to the maximum until forgotten', async () => {
    const backoffClock = new VirtualClock(0);
    const q = new RateLimitingQueue({ baseDelayMs: 20, maxDelayMs: 40, backoffClock });
    /** The key comes back after exactly `ms` of backoff, not a millisecond before. */
    const backsOff = async (ms: number): Promise<void> => {
      q.addRateLimited('k');
      await backoffClock.advance(ms - 1);
      assert.equal(q.length, 0, `not before ${ms} ms`);
      await backoffClock.advance(1);
      const key = await q.get();
      assert.equal(key, 'k');
      q.done(key);
    };
    await backsOff(20);
    await backsOff(40);
    await backsOff(40);
    q.forget('k');
    await backsOff(20);
    q.close();
  });

  it('ends waiting workers on close and ignores later adds', async () => {
    const clock = new VirtualClock(0);
    const q = new RateLimitingQueue({ clock });
    const waiting = q.get();
    q.addAfter('later', 5);
    q.close();
    assert.equal(await waiting, undefined);
    assert.equal(clock.pendingTimers, 0, 'the delayed add was cancelled');
    q.add('x');
    await clock.advance(10);
    assert.equal(await q.get(), undefined);
  });
});
