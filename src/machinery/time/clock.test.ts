import { describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { clockStepMs, longTimeout, systemClock, VirtualClock } from './clock.js';

describe('VirtualClock', () => {
  it('stands still until advanced, then fires due timers in order of due time', async () => {
    const clock = new VirtualClock(1_000_000);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`b@${clock.now()}`), 2000);
    clock.setTimeout(() => fired.push(`a@${clock.now()}`), 1000);
    const late = clock.setTimeout(() => fired.push('never'), 10_000);
    clock.setTimeout(() => fired.push(`c@${clock.now()}`), 2000);
    assert.equal(clock.now(), 1_000_000);
    await clock.advance('2s');
    assert.deepEqual(fired, ['a@1001000', 'b@1002000', 'c@1002000']);
    assert.equal(clock.now(), 1_002_000);
    late.cancel();
    await clock.advance('1h');
    assert.deepEqual(fired, ['a@1001000', 'b@1002000', 'c@1002000']);
    assert.equal(clock.pendingTimers, 0);
  });

  it('fires an interval for each step, once for periods missed in one step and at the last one', async () => {
    const clock = new VirtualClock(0);
    const ticks: number[] = [];
    const timer = clock.setInterval(() => ticks.push(clock.now()), 1000);
    await clock.advance(999);
    assert.deepEqual(ticks, []);
    await clock.advance(1);
    assert.deepEqual(ticks, [1000]);
    await clock.advance('1m');
    assert.deepEqual(ticks, [1000, 2000, 61_000]);
    timer.cancel();
    await clock.advance('1m');
    assert.equal(ticks.length, 3);
  });

  it('lets what a timer started run before the next timer fires', async () => {
    const clock = new VirtualClock(0);
    const seen: string[] = [];
    clock.setTimeout(() => {
      void Promise.resolve().then(() => seen.push('first done'));
    }, 10);
    clock.setTimeout(() => seen.push('second'), 20);
    await clock.advance(20);
    assert.deepEqual(seen, ['first done', 'second']);
  });

  it('reads Go durations and refuses to go back', () => {
    assert.equal(clockStepMs('31s'), 31_000);
    assert.equal(clockStepMs('1h30m'), 5_400_000);
    assert.equal(clockStepMs(250), 250);
    assert.throws(() => clockStepMs(-1), RangeError);
    assert.throws(() => clockStepMs('soon'), /invalid duration/);
  });

  it('sets the time forward, firing what falls due, and refuses to go back', async () => {
    const clock = new VirtualClock(1_000_000);
    const fired: number[] = [];
    clock.setTimeout(() => fired.push(clock.now()), 5000);
    await clock.setTime(1_010_000);
    assert.deepEqual(fired, [1_005_000]);
    assert.equal(clock.now(), 1_010_000);
    await assert.rejects(clock.setTime(1_000_000), RangeError);
    assert.equal(clock.now(), 1_010_000);
  });
});

describe('systemClock', () => {
  it('sets a timer longer than Node allows without the overflow warning (which would fire it at once)', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): void => {
      warnings.push(w.name);
    };
    process.on('warning', onWarning);
    try {
      const timer = systemClock.setTimeout(() => assert.fail('fired'), 1_548_715_811_000);
      // Node warns of an overflowing delay on the next tick.
      await new Promise(setImmediate);
      timer.cancel();
    } finally {
      process.off('warning', onWarning);
    }
    assert.deepEqual(warnings, []);
  });
});

describe('longTimeout', () => {
  it('waits a delay longer than the longest timer in steps, and fires once at its end', () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    // A millisecond at a time, so a timer set while one fires runs from that moment.
    const tick = (ms: number): void => {
      for (let i = 0; i < ms; i++) mock.timers.tick(1);
    };
    try {
      let fired = 0;
      longTimeout(() => fired++, 25, { longest: 10 });
      tick(24);
      assert.equal(fired, 0);
      tick(1);
      assert.equal(fired, 1);
      tick(100);
      assert.equal(fired, 1);
      const cancelled = longTimeout(() => fired++, 25, { longest: 10 });
      tick(15);
      cancelled.cancel();
      tick(100);
      assert.equal(fired, 1);
    } finally {
      mock.timers.reset();
    }
  });
});
