import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TurnPacer } from './turn-pacer.js';

const busy = (ms: number): void => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe('TurnPacer', () => {
  it('starts requests in the order they arrived', async () => {
    const pacer = new TurnPacer();
    const order: number[] = [];
    await new Promise<void>((resolve) => {
      for (let i = 0; i < 50; i++)
        pacer.submit(() => {
          order.push(i);
          if (i === 49) resolve();
        });
    });
    assert.deepEqual(order, Array.from({ length: 50 }, (_, i) => i));
    assert.equal(pacer.waiting, 0);
  });

  it('moves the starts past its budget to a later turn of the event loop', async () => {
    const run = async (budgetMs: number): Promise<boolean[]> => {
      const pacer = new TurnPacer({ budgetMs });
      let probed = false;
      const seen: boolean[] = [];
      await new Promise<void>((resolve) => {
        for (let i = 0; i < 3; i++)
          pacer.submit(() => {
            seen.push(probed);
            // Scheduled from the check phase: runs in the next turn, before any start moved there.
            if (i === 0) setImmediate(() => (probed = true));
            busy(7);
            if (i === 2) resolve();
          });
      });
      return seen;
    };
    assert.deepEqual(await run(5), [false, true, true]);
    // Within the budget, all three start in one turn.
    assert.deepEqual(await run(1000), [false, false, false]);
  });
});
