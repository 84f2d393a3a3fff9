// dc.scale's plan: the docs' proportional-scaling example, the single active ReplicaSet, a
// saturated new one, and a scale to zero.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Deployment } from '../../../api/apps/v1/deployment.js';
import type { ReplicaSet } from '../../../api/apps/v1/replica-set.js';
import { isScalingEvent, scaleSteps } from './scale.js';

const deployment = (replicas: number, status?: number): Deployment => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'd', namespace: 'ns' },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'd' } },
    template: {},
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 3, maxUnavailable: 2 } },
  },
  ...(status === undefined ? {} : { status: { replicas: status } }),
});

const rs = (
  name: string,
  at: string,
  sized: { replicas: number; desired: number; max: number; available?: number },
): ReplicaSet => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: {
    name,
    creationTimestamp: at,
    annotations: {
      'deployment.kubernetes.io/desired-replicas': String(sized.desired),
      'deployment.kubernetes.io/max-replicas': String(sized.max),
    },
  },
  spec: { replicas: sized.replicas, selector: { matchLabels: { app: 'd' } } },
  status: { replicas: sized.replicas, availableReplicas: sized.available ?? 0 },
});

const plan = (d: Deployment, newRS: ReplicaSet | undefined, old: ReplicaSet[]): [string, number][] =>
  scaleSteps(d, newRS, old).map((s) => [s.rs.metadata?.name ?? '', s.replicas]);

describe('scaleSteps', () => {
  // A rollout of 10 replicas (maxSurge 3) stuck with 8 old and 5 new, scaled to 15 (the docs'
  // example): 5 more fit, 3 to the larger old ReplicaSet and 2 to the new one.
  const old = rs('d-old', '2026-01-01T00:00:00Z', { replicas: 8, desired: 10, max: 13, available: 8 });
  const newRS = rs('d-new', '2026-01-01T00:01:00Z', { replicas: 5, desired: 10, max: 13 });

  it('shares a scale-up in the middle of a rollout in proportion to the sizes', () => {
    const d = deployment(15, 13);
    assert.equal(isScalingEvent(d, [newRS, old]), true);
    assert.deepEqual(plan(d, newRS, [old]), [
      ['d-old', 11],
      ['d-new', 7],
    ]);
    assert.ok(scaleSteps(d, newRS, [old]).every((s) => s.annotate));
  });

  it('shares a scale-down likewise, and takes both to zero at zero', () => {
    assert.deepEqual(plan(deployment(5, 13), newRS, [old]), [
      ['d-old', 5],
      ['d-new', 3],
    ]);
    assert.deepEqual(plan(deployment(0, 13), newRS, [old]), [
      ['d-old', 0],
      ['d-new', 0],
    ]);
  });

  it('gives the only active ReplicaSet the whole size, or the newest when none is active', () => {
    const idle = rs('d-idle', '2026-01-01T00:00:00Z', { replicas: 0, desired: 3, max: 4 });
    const only = rs('d-only', '2026-01-01T00:02:00Z', { replicas: 3, desired: 3, max: 4 });
    assert.deepEqual(plan(deployment(6), only, [idle]), [['d-only', 6]]);
    assert.equal(scaleSteps(deployment(6), only, [idle])[0]?.annotate, false);
    assert.deepEqual(plan(deployment(3), only, [idle]), []);
    const empty = rs('d-empty', '2026-01-01T00:03:00Z', { replicas: 0, desired: 0, max: 0 });
    assert.deepEqual(plan(deployment(2), undefined, [empty, idle]), [['d-empty', 2]]);
  });

  it('takes the old ReplicaSets to zero beside a saturated new one', () => {
    const full = rs('d-full', '2026-01-01T00:02:00Z', { replicas: 4, desired: 4, max: 5, available: 4 });
    const left = rs('d-left', '2026-01-01T00:00:00Z', { replicas: 1, desired: 4, max: 5 });
    assert.deepEqual(plan(deployment(4), full, [left]), [['d-left', 0]]);
  });

  it('is no scaling event while every active ReplicaSet was sized for spec.replicas', () => {
    assert.equal(isScalingEvent(deployment(10), [newRS, old]), false);
    const unannotated = { ...old, metadata: { name: 'x' } };
    assert.equal(isScalingEvent(deployment(4), [unannotated]), false);
  });
});
