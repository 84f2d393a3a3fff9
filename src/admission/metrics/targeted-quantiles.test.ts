// The step summary's quantiles: exact while few, within each target's rank error after, over a
// window whose oldest fifth is dropped as it ages.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TargetedQuantiles } from './targeted-quantiles.js';
import { WindowedSummary } from './windowed-summary.js';

const targets = [
  { quantile: 0.5, epsilon: 0.05 },
  { quantile: 0.9, epsilon: 0.01 },
  { quantile: 0.99, epsilon: 0.001 },
];

/** A repeatable spread of values (a linear congruential generator), skewed as latencies are. */
function values(n: number): number[] {
  let x = 12345;
  return Array.from({ length: n }, () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return (x / 2 ** 31) ** 3;
  });
}

describe('TargetedQuantiles', () => {
  it('answers exactly from a few observations, NaN from none', () => {
    const s = new TargetedQuantiles(targets);
    assert.ok(Number.isNaN(s.query(0.5)));
    s.insertSorted([1, 2, 3, 4]);
    assert.equal(s.query(0.5), 2);
    assert.equal(s.query(0.99), 4);
  });

  it('keeps each quantile within its rank error over many batches, in few samples', () => {
    const all = values(200_000);
    const s = new TargetedQuantiles(targets);
    for (let i = 0; i < all.length; i += 500) s.insertSorted(all.slice(i, i + 500).sort((a, b) => a - b));
    const sorted = [...all].sort((a, b) => a - b);
    for (const { quantile, epsilon } of targets) {
      const estimate = s.query(quantile);
      const low = sorted[Math.floor((quantile - epsilon) * all.length)] ?? -Infinity;
      const high = sorted[Math.ceil((quantile + epsilon) * all.length)] ?? Infinity;
      assert.ok(
        estimate >= low && estimate <= high,
        `q${String(quantile)}: ${String(estimate)} not in [${String(low)}, ${String(high)}]`,
      );
    }
    assert.equal(s.count, all.length);
  });
});

describe('WindowedSummary', () => {
  it('forgets what the window no longer covers', () => {
    let now = 0;
    const s = new WindowedSummary({ targets, maxAgeMs: 5000, now: () => now });
    for (const v of [1, 2, 3]) s.observe(v);
    assert.deepEqual(s.quantiles(), [2, 3, 3]);
    // A fifth of the window later the oldest stream is dropped, but the next holds the same.
    now = 1001;
    s.observe(10);
    assert.deepEqual(s.quantiles(), [2, 10, 10]);
    now = 5002;
    assert.deepEqual(s.quantiles(), [10, 10, 10]);
    now = 20_000;
    assert.ok(s.quantiles().every(Number.isNaN));
  });
});
