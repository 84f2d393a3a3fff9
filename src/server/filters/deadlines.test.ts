// The request timeout's clock: one timer per timeout length, deadlines kept in arrival order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Deadlines } from './deadlines.js';

describe('Deadlines', () => {
  it('expires what is not ended in time, in order, and nothing that ended', async () => {
    const deadlines = new Deadlines();
    const expired: string[] = [];
    const endA = deadlines.start(30, () => expired.push('a'));
    deadlines.start(30, () => expired.push('b'));
    const endC = deadlines.start(30, () => expired.push('c'));
    deadlines.start(10, () => expired.push('short'));
    endA();
    await sleep(15);
    assert.deepEqual(expired, ['short']);
    endC();
    await sleep(40);
    assert.deepEqual(expired, ['short', 'b']);
    // Ending after expiry changes nothing.
    endC();
    deadlines.close();
  });

  it("takes a deadline beyond Node's longest timer without the overflow warning, which would fire it at once", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): void => {
      warnings.push(w.name);
    };
    process.on('warning', onWarning);
    const deadlines = new Deadlines();
    const expired: string[] = [];
    try {
      deadlines.start(40 * 24 * 3600_000, () => expired.push('queued'));
      // 63 more lengths in use: the 65th length gets a timer of its own.
      for (let ms = 0; ms < 63; ms++) deadlines.start(60_000 + ms, () => undefined);
      deadlines.start(41 * 24 * 3600_000, () => expired.push('own timer'));
      await sleep(10);
    } finally {
      deadlines.close();
      process.off('warning', onWarning);
    }
    assert.deepEqual(expired, []);
    assert.deepEqual(warnings, []);
  });

  it('keeps serving after the queue ran empty', async () => {
    const deadlines = new Deadlines();
    const expired: number[] = [];
    for (let i = 0; i < 2000; i++) deadlines.start(20, () => expired.push(i))();
    const end = deadlines.start(20, () => expired.push(-1));
    await sleep(40);
    assert.deepEqual(expired, [-1]);
    end();
    deadlines.start(5, () => expired.push(-2));
    await sleep(20);
    assert.deepEqual(expired, [-1, -2]);
    deadlines.close();
  });

  it('gives a request its own timer beyond 64 lengths in use', async () => {
    const deadlines = new Deadlines();
    const ends = Array.from({ length: 64 }, (_, i) => deadlines.start(1000 + i, () => undefined));
    let fired = false;
    deadlines.start(5, () => (fired = true));
    await sleep(20);
    assert.equal(fired, true);
    for (const end of ends) end();
    deadlines.close();
  });
});
