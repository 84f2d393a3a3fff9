import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../../api/core/v1/pod.js';
import type {
  PodDisruptionBudget,
  PodDisruptionBudgetSpec,
} from '../../../api/policy/v1/pod-disruption-budget.js';
import { budgetStatus } from './disruption-controller.js';

const now = Date.parse('2026-01-01T00:10:00Z');
const readyPod = (name: string, extra: Pod['metadata'] = {}): Pod => ({
  metadata: { name, ...extra },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
});
const budget = (
  spec: PodDisruptionBudgetSpec,
  disruptedPods?: Record<string, string>,
): PodDisruptionBudget => ({
  metadata: { name: 'b', generation: 2 },
  spec,
  ...(disruptedPods === undefined
    ? {}
    : {
        status: {
          disruptedPods,
          disruptionsAllowed: 0,
          currentHealthy: 0,
          desiredHealthy: 0,
          expectedPods: 0,
        },
      }),
});
const pods: Pod[] = [
  readyPod('a'),
  readyPod('b'),
  readyPod('c'),
  { metadata: { name: 'd' }, status: { phase: 'Pending' } },
];

describe('PodDisruptionBudget status', () => {
  it('minAvailable as a number and as a percentage (rounded up)', () => {
    const s = budgetStatus(budget({ minAvailable: 2 }), pods, now);
    assert.deepEqual(
      [s.expectedPods, s.currentHealthy, s.desiredHealthy, s.disruptionsAllowed],
      [4, 3, 2, 1],
    );
    assert.equal(s.observedGeneration, 2);
    assert.equal(s.conditions?.[0]?.reason, 'SufficientPods');
    assert.equal(budgetStatus(budget({ minAvailable: '60%' }), pods, now).desiredHealthy, 3);
  });

  it('a ready pod named constructor is healthy unless the budget charged its eviction', () => {
    const named = [readyPod('constructor'), readyPod('b')];
    const s = budgetStatus(budget({ minAvailable: 1 }), named, now);
    assert.deepEqual([s.currentHealthy, s.disruptionsAllowed], [2, 1]);
  });

  it('maxUnavailable leaves expected minus that many', () => {
    const s = budgetStatus(budget({ maxUnavailable: 1 }), pods, now);
    assert.deepEqual([s.desiredHealthy, s.disruptionsAllowed], [3, 0]);
    assert.equal(s.conditions?.[0]?.reason, 'InsufficientPods');
  });

  it('a charged eviction counts against health until the pod terminates or two minutes pass', () => {
    const recent = budgetStatus(budget({ minAvailable: 1 }, { a: '2026-01-01T00:09:30Z' }), pods, now);
    assert.deepEqual([recent.currentHealthy, recent.disruptionsAllowed], [2, 1]);
    assert.deepEqual(recent.disruptedPods, { a: '2026-01-01T00:09:30Z' });
    const stale = budgetStatus(budget({ minAvailable: 1 }, { a: '2026-01-01T00:07:00Z' }), pods, now);
    assert.equal(stale.currentHealthy, 3);
    assert.equal(stale.disruptedPods, undefined);
  });
});
