import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Classification, LevelSettings } from './classifier.js';
import { FairQueuing, type LevelConfiguration } from './fair-queuing.js';

const level = (more: Partial<LevelSettings> = {}): LevelSettings => ({
  shares: 10,
  lendablePercent: 0,
  borrowingLimitPercent: undefined,
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
  const config = (...levels: Classification[]): LevelConfiguration => ({
    levels: new Map(levels.map((c) => [c.priorityLevelName, c.level])),
  });
  let levels = config(low, classified('high', level({ shares: 30 })));
  const flow = (distinguisher: string, signal = never) => ({ distinguisher, config: levels, signal });

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
    const rejecting = classified('rejecting', level({ reject: true }));
    const exempt = classified('exempt', level({ shares: 0 }), true);
    levels = config(one, rejecting, exempt, classified('rest', level({ shares: 20 })));
    const seat = await q.acquire(one, flow('a'));
    const abort = new AbortController();
    const waiting = q.acquire(one, flow('a', abort.signal));
    assert.equal(await q.acquire(one, flow('b')), undefined);
    abort.abort();
    assert.equal(await waiting, undefined);
    const held = await q.acquire(rejecting, flow('a'));
    assert.ok(held !== undefined);
    assert.equal(await q.acquire(rejecting, flow('b')), undefined);
    for (let i = 0; i < 10; i++) assert.ok((await q.acquire(exempt, flow('x'))) !== undefined);
    seat?.();
    held();
  });

  it('times a waiting request out after the wait limit', async () => {
    levels = config(low, classified('high', level({ shares: 30 })));
    const q = new FairQueuing({ serverConcurrency: 1, waitLimitMs: 1 });
    const seat = await q.acquire(low, flow('a'));
    assert.equal(await q.acquire(low, flow('b')), undefined);
    seat?.();
  });

  describe('borrowing', () => {
    // Two levels of 10 shares over 20 seats: 10 nominal each, 5 of them lendable.
    const lending = (more: Partial<LevelSettings> = {}): LevelSettings =>
      level({ lendablePercent: 50, queueLengthLimit: 50, ...more });
    const busy = (more: Partial<LevelSettings> = {}): Classification => classified('busy', lending(more));
    const idle = classified('idle', lending());

    /** `n` requests at level `c`; `end()` gives back their seats and gives up their waits. */
    async function demand(
      c: Classification,
      fqueue: FairQueuing,
      n: number,
    ): Promise<{ admitted: () => number; end: () => void }> {
      let admitted = 0;
      const releases: (() => void)[] = [];
      const waits: AbortController[] = [];
      const cfg: LevelConfiguration = {
        levels: new Map([
          [c.priorityLevelName, c.level],
          [idle.priorityLevelName, idle.level],
        ]),
      };
      for (let i = 0; i < n; i++) {
        const wait = new AbortController();
        waits.push(wait);
        void fqueue
          .acquire(c, { distinguisher: `u${String(i)}`, config: cfg, signal: wait.signal })
          .then((r) => {
            if (r === undefined) return;
            admitted++;
            releases.push(r);
          });
      }
      await new Promise((r) => setImmediate(r));
      return {
        admitted: () => admitted,
        end: () => {
          for (const w of waits) w.abort();
          for (const r of releases) r();
        },
      };
    }

    it("lends an idle level's seats to a level whose demand exceeds its own", async () => {
      let now = 0;
      const q = new FairQueuing({ serverConcurrency: 20, waitLimitMs: 60_000, now: () => now });
      const d = await demand(busy(), q, 20);
      // Before any demand is seen, both levels start from their nominal limits.
      assert.deepEqual([q.limitOf('busy'), q.limitOf('idle'), d.admitted()], [10, 10, 10]);
      now += 10_000;
      q.adjust();
      // busy's demand of 20 seats against idle's none: 15 and the 5 idle may not lend.
      assert.deepEqual([q.limitOf('busy'), q.limitOf('idle')], [15, 5]);
      await new Promise((r) => setImmediate(r));
      assert.equal(d.admitted(), 15, 'the borrowed seats admit waiting requests at once');
      d.end();
    });

    it('borrows no more than borrowingLimitPercent allows', async () => {
      let now = 0;
      const q = new FairQueuing({ serverConcurrency: 20, waitLimitMs: 60_000, now: () => now });
      const d = await demand(busy({ borrowingLimitPercent: 20 }), q, 20);
      now += 10_000;
      q.adjust();
      await new Promise((r) => setImmediate(r));
      // 10 nominal + 20 % of it: 12; the idle level keeps the rest.
      assert.deepEqual([q.limitOf('busy'), q.limitOf('idle'), d.admitted()], [12, 8, 12]);
      d.end();
    });
  });
});
