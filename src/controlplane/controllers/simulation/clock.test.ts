import assert from 'node:assert/strict';
import { it } from 'node:test';
import { VirtualClock } from '../../../machinery/time/clock.js';
import { periodically, simClockOf } from './clock.js';

it('periodically runs at once, then every period of the clock, until stopped', async () => {
  const clock = new VirtualClock(0);
  const at: number[] = [];
  const stop = periodically(simClockOf(clock), 10_000, () => at.push(clock.now()));
  assert.deepEqual(at, [0]);
  await clock.advance('25s');
  assert.deepEqual(at, [0, 10_000, 20_000]);
  stop();
  await clock.advance('1m');
  assert.deepEqual(at, [0, 10_000, 20_000]);
  assert.equal(clock.pendingTimers, 0);
});
