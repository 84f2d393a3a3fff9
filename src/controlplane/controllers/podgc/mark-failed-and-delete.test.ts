import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withPodCondition } from './mark-failed-and-delete.js';

const condition = {
  type: 'DisruptionTarget',
  status: 'True',
  reason: 'DeletionByPodGC',
  message: 'PodGC: node no longer exists',
};
const now = '2026-12-03T12:00:00Z';
const before = '2026-12-03T11:00:00Z';

describe('withPodCondition', () => {
  it('appends a condition the pod does not have', () => {
    const ready = { type: 'Ready', status: 'True' };
    assert.deepEqual(withPodCondition({ conditions: [ready] }, { condition, now }), [
      ready,
      { ...condition, lastTransitionTime: now },
    ]);
  });

  it('replaces one of its type in place, keeping its transition time while the status holds', () => {
    const old = { type: 'DisruptionTarget', status: 'True', reason: 'X', lastTransitionTime: before };
    const ready = { type: 'Ready', status: 'False' };
    assert.deepEqual(withPodCondition({ conditions: [old, ready] }, { condition, now }), [
      { ...condition, lastTransitionTime: before },
      ready,
    ]);
    const flipped = { ...old, status: 'False' };
    assert.equal(withPodCondition({ conditions: [flipped] }, { condition, now })[0]?.lastTransitionTime, now);
  });
});
