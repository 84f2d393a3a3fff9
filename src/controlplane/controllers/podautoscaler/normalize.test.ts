// The behavior's rate policies and stabilization windows (horizontal.go's
// normalizeDesiredReplicasWithBehaviors): the default scale-up policies (4 pods or 100 % a 15 s
// period, the larger), the scale events a period counts, a Percent scale-down policy, selectPolicy
// Min and Disabled, and the scale-up stabilization window.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HorizontalPodAutoscalerBehavior } from '../../../api/autoscaling/v2/types.js';
import { normalizeDesiredReplicasWithBehaviors, ScalingHistory } from './normalize.js';

const defaultUp = {
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
} as const;
const behavior = (b: HorizontalPodAutoscalerBehavior): HorizontalPodAutoscalerBehavior => ({
  scaleUp: { ...defaultUp, policies: [...defaultUp.policies] },
  scaleDown: {
    stabilizationWindowSeconds: 0,
    selectPolicy: 'Max',
    policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
  },
  ...b,
});

function step(
  history: ScalingHistory,
  at: { b: HorizontalPodAutoscalerBehavior; current: number; desired: number; now: number },
): { replicas: number; limited: string | undefined } {
  const out = normalizeDesiredReplicasWithBehaviors(history, {
    currentReplicas: at.current,
    desiredReplicas: at.desired,
    minReplicas: 1,
    maxReplicas: 100,
    now: at.now,
    behavior: at.b,
    downscaleWindowMs: 300_000,
  });
  if (out.replicas !== at.current)
    history.storeScaleEvent(at.b, { from: at.current, to: out.replicas, now: at.now });
  const limit = out.conditions.find((c) => c.type === 'ScalingLimited');
  return { replicas: out.replicas, limited: limit?.status === 'True' ? limit.reason : undefined };
}

describe('normalizeDesiredReplicasWithBehaviors', () => {
  it('scales up by the larger default policy, counting the scale-ups of the period', () => {
    const h = new ScalingHistory();
    const b = behavior({});
    // 2 → 20 wanted: 4 pods (6) beats 100 % (4).
    assert.deepEqual(step(h, { b, current: 2, desired: 20, now: 0 }), {
      replicas: 6,
      limited: 'ScaleUpLimit',
    });
    // 10 s later the period still holds the +4: it starts at 2, so 6 again.
    assert.deepEqual(step(h, { b, current: 6, desired: 20, now: 10_000 }), {
      replicas: 6,
      limited: 'ScaleUpLimit',
    });
    // Past the period: from 6, 100 % (12) beats 4 pods (10).
    assert.deepEqual(step(h, { b, current: 6, desired: 20, now: 16_000 }), {
      replicas: 12,
      limited: 'ScaleUpLimit',
    });
    assert.deepEqual(step(h, { b, current: 12, desired: 20, now: 32_000 }), {
      replicas: 20,
      limited: undefined,
    });
  });

  it('takes the smaller change under selectPolicy Min, none when Disabled', () => {
    const min = behavior({
      scaleUp: { ...defaultUp, selectPolicy: 'Min', policies: [...defaultUp.policies] },
    });
    assert.deepEqual(step(new ScalingHistory(), { b: min, current: 2, desired: 20, now: 0 }), {
      replicas: 4,
      limited: 'ScaleUpLimit',
    });
    const off = behavior({
      scaleUp: { ...defaultUp, selectPolicy: 'Disabled', policies: [...defaultUp.policies] },
    });
    assert.deepEqual(step(new ScalingHistory(), { b: off, current: 2, desired: 20, now: 0 }), {
      replicas: 2,
      limited: 'ScaleUpLimit',
    });
  });

  it('scales down by a Percent policy, rounding down, within its period', () => {
    const h = new ScalingHistory();
    const b = behavior({
      scaleDown: {
        stabilizationWindowSeconds: 0,
        policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }],
      },
    });
    // 40 → 10 wanted: 10 % a minute, so 36, and still 36 within the minute.
    assert.deepEqual(step(h, { b, current: 40, desired: 10, now: 0 }), {
      replicas: 36,
      limited: 'ScaleDownLimit',
    });
    assert.deepEqual(step(h, { b, current: 36, desired: 10, now: 30_000 }), {
      replicas: 36,
      limited: 'ScaleDownLimit',
    });
    // A minute on: from 36, 10 % down is 32.4, so 32.
    assert.deepEqual(step(h, { b, current: 36, desired: 10, now: 61_000 }), {
      replicas: 32,
      limited: 'ScaleDownLimit',
    });
  });

  it('keeps the lowest recommendation of the scale-up stabilization window', () => {
    const h = new ScalingHistory();
    const b = behavior({
      scaleUp: { ...defaultUp, stabilizationWindowSeconds: 60, policies: [...defaultUp.policies] },
    });
    h.recordInitial(3, 0);
    assert.deepEqual(step(h, { b, current: 3, desired: 5, now: 10_000 }), {
      replicas: 3,
      limited: undefined,
    });
    // The initial 3 falls out of the window: the lowest left is 5.
    assert.deepEqual(step(h, { b, current: 3, desired: 6, now: 61_000 }), {
      replicas: 5,
      limited: undefined,
    });
  });
});
