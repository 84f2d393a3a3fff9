import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allocate, levelLimits, SeatDemandIntegrator, SeatDemandStats } from './borrowing.js';

describe('levelLimits', () => {
  it("derives a level's nominal, minimum and maximum concurrency as kube does", () => {
    // workload-low of kube's suggested configuration: 100 of 245 shares over 600 seats, 90 % lendable.
    assert.deepEqual(
      levelLimits({ shares: 100, lendablePercent: 90, borrowingLimitPercent: undefined }, 600, 245),
      {
        nominal: 245,
        min: 24,
        max: 845,
      },
    );
    // Go's rounding of 24.5 goes up: node-high, 40 shares, 25 % lendable.
    assert.deepEqual(levelLimits({ shares: 40, lendablePercent: 25, borrowingLimitPercent: 50 }, 600, 245), {
      nominal: 98,
      min: 73,
      max: 147,
    });
  });
});

describe('allocate', () => {
  it('divides in proportion to the targets when no bound is met', () => {
    const shares = allocate(30, [
      { lower: 0, upper: 100, target: 10 },
      { lower: 0, upper: 100, target: 20 },
    ]);
    assert.deepEqual(
      shares.map((s) => Math.round(s * 1000) / 1000),
      [10, 20],
    );
  });

  it('holds items at their bounds and gives the rest to the others', () => {
    const shares = allocate(100, [
      { lower: 0, upper: 10, target: 50 },
      { lower: 30, upper: 200, target: 1 },
      { lower: 0, upper: 200, target: 10 },
    ]);
    assert.deepEqual(
      shares.map((s) => Math.round(s * 1000) / 1000),
      [10, 30, 60],
    );
  });

  it('answers the lower or upper bounds when they cannot meet the total', () => {
    const items = [
      { lower: 5, upper: 8, target: 5 },
      { lower: 6, upper: 9, target: 6 },
    ];
    assert.deepEqual(allocate(10, items), [5, 6]);
    assert.deepEqual(allocate(20, items), [8, 9]);
  });
});

describe('seat demand', () => {
  it('integrates demand over time: mean, deviation, peak; the smoothed envelope decays slowly', () => {
    let now = 0;
    const demand = new SeatDemandIntegrator(() => now);
    demand.set(4);
    now = 5;
    demand.set(0);
    now = 10;
    const o = demand.reset();
    assert.deepEqual(o, { durationMs: 10, average: 2, deviation: 2, max: 4 });
    const stats = new SeatDemandStats();
    stats.update(o);
    assert.deepEqual([stats.highWatermark, stats.smoothed], [4, 4]);
    now = 20;
    stats.update(demand.reset());
    assert.equal(stats.highWatermark, 0);
    assert.ok(stats.smoothed > 3.9 && stats.smoothed < 4, String(stats.smoothed));
  });
});
