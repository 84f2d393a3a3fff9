import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
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
    const q = new RateLimitingQueue();
    q.addAfter('slow', 10_000);
    q.addAfter('slow', 5);
    q.addAfter('now', 0);
    assert.equal(await q.get(), 'now');
    const started = Date.now();
    assert.equal(await q.get(), 'slow');
    assert.ok(Date.now() - started < 1000);
    q.close();
  });

  it('backs off per key exponentially up to the maximum until forgotten', async () => {
    const q = new RateLimitingQueue({ baseDelayMs: 20, maxDelayMs: 40 });
    const timed = async (): Promise<number> => {
      const t = Date.now();
      const key = await q.get();
      q.done(key ?? '');
      return Date.now() - t;
    };
    q.addRateLimited('k');
    assert.ok((await timed()) >= 15);
    q.addRateLimited('k');
    assert.ok((await timed()) >= 35);
    q.addRateLimited('k');
    assert.ok((await timed()) < 200);
    q.forget('k');
    q.addRateLimited('k');
    assert.ok((await timed()) < 35);
    q.close();
  });

  it('ends waiting workers on close and ignores later adds', async () => {
    const q = new RateLimitingQueue();
    const waiting = q.get();
    q.addAfter('later', 5);
    q.close();
    assert.equal(await waiting, undefined);
    q.add('x');
    await delay(10);
    assert.equal(await q.get(), undefined);
  });
});
