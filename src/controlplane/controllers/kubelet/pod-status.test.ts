import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../../api/core/v1/pod.js';
import { containersGoneAt } from './pod-status.js';

const deleted = Date.parse('2026-12-03T12:00:00Z');

/** A pod deleted at `deleted` with a 30s grace period (its deletionTimestamp 30s later). */
function terminating(annotations?: Record<string, string>): Pod {
  return {
    metadata: {
      name: 'p',
      deletionTimestamp: new Date(deleted + 30_000).toISOString(),
      deletionGracePeriodSeconds: 30,
      ...(annotations === undefined ? {} : { annotations }),
    },
  };
}

describe('containersGoneAt', () => {
  it('stops at once without capstan.dev/stop-seconds or a server default', () => {
    assert.equal(containersGoneAt(terminating()), deleted);
  });

  it('waits out the grace period for a stop time at or past it (SIGTERM ignored)', () => {
    assert.equal(containersGoneAt(terminating({ 'capstan.dev/stop-seconds': '3600' })), deleted + 30_000);
    assert.equal(containersGoneAt(terminating(), 30), deleted + 30_000);
  });

  it("takes the server's default stop time for a pod without the annotation", () => {
    assert.equal(containersGoneAt(terminating(), 5), deleted + 5_000);
    assert.equal(containersGoneAt(terminating(), 0), deleted);
    // Never past the grace period.
    assert.equal(containersGoneAt(terminating(), 60), deleted + 30_000);
  });

  it('lets the annotation win over the default', () => {
    const pod = terminating({ 'capstan.dev/stop-seconds': '12' });
    assert.equal(containersGoneAt(pod, 5), deleted + 12_000);
    assert.equal(containersGoneAt(terminating({ 'capstan.dev/stop-seconds': 'soon' }), 5), deleted + 5_000);
  });

  it('is NaN for a pod that is not being deleted', () => {
    assert.ok(Number.isNaN(containersGoneAt({ metadata: { name: 'p' } }, 5)));
  });
});
