// Stopping a cacher ends its reflector's watch and returns: the relist backoff is for failures, not
// for a stop (with an hour's backoff, a stop that slept through it would lose the race below).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { podCacher, testTiming } from './testing/pods.js';

it('stops without sleeping the relist backoff', async () => {
  const hour = 3_600_000;
  const pods = await podCacher({
    timing: { ...testTiming, relistBackoffMs: hour, relistBackoffMaxMs: hour },
  });
  const guard = new AbortController();
  const outcome = await Promise.race([
    pods.close().then(() => 'stopped'),
    sleep(5000, 'still stopping', { signal: guard.signal }).catch(() => 'aborted'),
  ]);
  guard.abort();
  assert.equal(outcome, 'stopped');
});
