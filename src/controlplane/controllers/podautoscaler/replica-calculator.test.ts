// The replica calculator and the stabilization window, as kube's replica_calculator_test.go and
// horizontal_test.go check them: tolerance, missing and unready pods, and a scale-down held back
// by a higher recommendation of the last five minutes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../../api/core/v1/pod.js';
import { normalizeDesiredReplicas, ScalingHistory } from './normalize.js';
import { resourceReplicas, type PodMetricsInfo } from './replica-calculator.js';

const now = Date.parse('2026-03-01T00:00:00Z');
const longAgo = new Date(now - 3_600_000).toISOString();

type Phase = NonNullable<Pod['status']>['phase'];

const pod = (name: string, phase: Phase = 'Running', ready = 'True'): Pod => ({
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '1' } } }] },
  status: {
    phase,
    startTime: longAgo,
    conditions: [{ type: 'Ready', status: ready, lastTransitionTime: longAgo }],
  },
});

const usage = (values: Record<string, number>): PodMetricsInfo =>
  new Map(Object.entries(values).map(([k, value]) => [k, { value, timestamp: now, windowMs: 30_000 }]));

const calc = (pods: Pod[], metrics: PodMetricsInfo, current: number) =>
  resourceReplicas({
    currentReplicas: current,
    pods,
    metrics,
    resource: 'cpu',
    container: '',
    now,
    targetUtilization: 50,
  });

describe('replica calculator', () => {
  it('keeps the current count within the 0.1 tolerance, and scales by the ratio beyond it', () => {
    assert.deepEqual(calc([pod('a'), pod('b')], usage({ a: 520, b: 520 }), 2), {
      ok: true,
      replicas: 2,
      utilization: 52,
      rawUtilization: 520,
    });
    const doubled = calc([pod('a'), pod('b')], usage({ a: 1000, b: 1000 }), 2);
    assert.equal(doubled.ok && doubled.replicas, 4);
  });

  it('takes pods without metrics at 100% of their request on a scale-down', () => {
    // Measured: 10% of one pod, a scale-down; the missing one counts as 100%: (10 + 100) / 2 = 55%,
    // above the 50% target, which would turn the direction: the count stays.
    const r = calc([pod('a'), pod('b')], usage({ a: 100 }), 2);
    assert.deepEqual(r.ok && r.replicas, 2);
  });

  it('takes unready pods at 0% on a scale-up', () => {
    // a uses 200%, b is not ready: (200 + 0) / 2 = 100% of 50% → 2 × 2 = 4.
    const r = calc([pod('a'), pod('b', 'Running', 'False')], usage({ a: 2000, b: 2000 }), 2);
    assert.deepEqual(r.ok && r.replicas, 4);
  });

  it('says so when no pod has a metric left', () => {
    assert.deepEqual(calc([pod('a', 'Pending')], usage({ a: 100 }), 1), {
      ok: false,
      error: 'did not receive metrics for targeted pods (pods might be unready)',
    });
    assert.deepEqual(calc([], usage({}), 1), {
      ok: false,
      error: 'no pods returned by selector while calculating replica count',
    });
  });

  it('names a container without a request', () => {
    const bare: Pod = { ...pod('a'), spec: { containers: [{ name: 'c', image: 'x' }] } };
    assert.deepEqual(calc([bare], usage({ a: 100 }), 1), {
      ok: false,
      error: 'missing request for cpu in container c of Pod a',
    });
  });
});

describe('stabilization without a behavior', () => {
  it('holds a scale-down at the highest recommendation of the window, then lets it go', () => {
    const history = new ScalingHistory();
    const input = { currentReplicas: 5, minReplicas: 1, maxReplicas: 10, downscaleWindowMs: 300_000 };
    history.recordInitial(5, now);
    const held = normalizeDesiredReplicas(history, { ...input, desiredReplicas: 2, now: now + 15_000 });
    assert.equal(held.replicas, 5);
    assert.deepEqual(held.conditions[0]?.reason, 'ScaleDownStabilized');
    const later = normalizeDesiredReplicas(history, { ...input, desiredReplicas: 2, now: now + 320_000 });
    assert.equal(later.replicas, 2);
    assert.deepEqual(later.conditions[0]?.reason, 'ReadyForNewScale');
  });

  it('limits a scale-up to twice the current count (at least 4)', () => {
    const r = normalizeDesiredReplicas(new ScalingHistory(), {
      currentReplicas: 3,
      minReplicas: 1,
      maxReplicas: 20,
      downscaleWindowMs: 300_000,
      desiredReplicas: 9,
      now,
    });
    assert.equal(r.replicas, 6);
    assert.deepEqual(r.conditions[1], {
      type: 'ScalingLimited',
      status: 'True',
      reason: 'ScaleUpLimit',
      message: 'the desired replica count is increasing faster than the maximum scale rate',
    });
  });
});
