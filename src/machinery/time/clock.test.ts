import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { clockStepMs, VirtualClock } from './clock.js';

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
