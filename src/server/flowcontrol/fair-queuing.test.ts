import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Classification, LevelSettings } from './classifier.js';
import { FairQueuing } from './fair-queuing.js';

const level = (more: Partial<LevelSettings> = {}): LevelSettings => ({
  shares: 10,
  reject: false,
  queues: 4,
  handSize: 2,
  queueLengthLimit: 2,
  ...more,
});

const classified = (name: string, settings: LevelSettings, exempt = false): Classification => ({
  flowSchemaName: `fs-${name}`,
  flowSchemaUID: `fs-uid-${name}`,
  priorityLevelName: name,
  priorityLevelUID: `pl-uid-${name}`,
  exempt,
  distinguisher: 'ByUser',
  level: settings,
});

const never = new AbortController().signal;

describe('FairQueuing', () => {
  // Two levels of 10 and 30 shares out of 40 over a server concurrency of 4: 1 and 3 seats.
  const fq = (): FairQueuing => new FairQueuing({ serverConcurrency: 4, waitLimitMs: 60_000 });
  const low = classified('low', level());
  const flow = (distinguisher: string, signal = never) => ({ distinguisher, totalShares: 40, signal });

  it("gives a level its share of the server's seats and queues the rest until a seat is free", async () => {
    const q = fq();
    const first = await q.acquire(low, flow('a'));
    assert.ok(first !== undefined);
    let admitted = false;
    const second = q.acquire(low, flow('a')).then((r) => {
      admitted = true;
      return r;
    });
    await Promise.resolve();
    assert.equal(admitted, false);
    first();
    const seat = await second;
    assert.ok(seat !== undefined);
    seat();
  });

  it('serves queues in turn, so a busy flow does not starve another', async () => {
    const q = fq();
    let release = await q.acquire(low, flow('busy'));
    const order: string[] = [];
    const releases: (() => void)[] = [];
    const wait = (who: string): Promise<void> =>
      q.acquire(low, flow(who)).then((r) => {
        order.push(who);
        if (r !== undefined) releases.push(r);
      });
    const queued = [wait('busy'), wait('busy'), wait('quiet')];
    // One seat: each release admits exactly one waiter.
    for (let i = 0; i < 3; i++) {
      release?.();
      await new Promise((r) => setImmediate(r));
      assert.equal(order.length, i + 1);
      release = releases[i];
    }
    release?.();
    await Promise.all(queued);
    // FIFO would serve the quiet flow last; its own queue's turn comes before the second busy one.
    assert.deepEqual(order, ['busy', 'quiet', 'busy']);
  });

  it('refuses beyond the queue length, on a Reject level, when the client goes away; never holds exempt', async () => {
    const q = fq();
    const one = classified('one', level({ queues: 1, handSize: 1, queueLengthLimit: 1 }));
    const seat = await q.acquire(one, flow('a'));
    const abort = new AbortController();
    const waiting = q.acquire(one, flow('a', abort.signal));
    assert.equal(await q.acquire(one, flow('b')), undefined);
    abort.abort();
    assert.equal(await waiting, undefined);
    const rejecting = classified('rejecting', level({ reject: true }));
    const held = await q.acquire(rejecting, flow('a'));
    assert.ok(held !== undefined);
    assert.equal(await q.acquire(rejecting, flow('b')), undefined);
    const exempt = classified('exempt', level({ shares: 0 }), true);
    for (let i = 0; i < 10; i++) assert.ok((await q.acquire(exempt, flow('x'))) !== undefined);
    seat?.();
    held();
  });

  it('times a waiting request out after the wait limit', async () => {
    const q = new FairQueuing({ serverConcurrency: 1, waitLimitMs: 1 });
    const seat = await q.acquire(low, flow('a'));
    assert.equal(await q.acquire(low, flow('b')), undefined);
    seat?.();
  });
});
