// Pods, Object and External metrics as kube's replica_calculator_test.go and horizontal_test.go
// check them: the usage-ratio and per-pod counts, missing and unready pods of a Pods metric, the
// status metrics and names each writes, and the failures' events, conditions and wrapped errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HorizontalPodAutoscaler, MetricSpec, MetricTarget } from '../../../api/autoscaling/v2/types.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { MetricContext } from './metric-context.js';
import { computeReplicasForMetric } from './metric-replicas.js';
import type { MetricsClient } from './metrics-client.js';
import { defaultCalculatorSettings, type PodMetricsInfo } from './replica-calculator.js';
import { perPodReplicas, valueReplicas } from './usage-ratio-replicas.js';

const now = Date.parse('2026-03-01T00:00:00Z');
const longAgo = new Date(now - 3_600_000).toISOString();
type Phase = NonNullable<Pod['status']>['phase'];
const pod = (name: string, phase: Phase = 'Running', ready = 'True'): Pod => ({
  metadata: { name },
  status: {
    phase,
    startTime: longAgo,
    conditions: [{ type: 'Ready', status: ready, lastTransitionTime: longAgo }],
  },
});
const three = [pod('a'), pod('b'), pod('c')];

describe('usage-ratio replica counts', () => {
  it('scales the ready pods by the ratio beyond the tolerance (getUsageRatioReplicaCount)', () => {
    const base = { currentReplicas: 3, target: 1000, pods: three, tolerance: 0.1 };
    assert.deepEqual(valueReplicas({ ...base, usage: 1050 }), { ok: true, replicas: 3, usage: 1050 });
    // Only the Running, Ready pods count: 2 × 2.5 → 5.
    const mixed = [pod('a'), pod('b'), pod('c', 'Pending'), pod('d', 'Running', 'False')];
    assert.deepEqual(valueReplicas({ ...base, pods: mixed, usage: 2500 }), {
      ok: true,
      replicas: 5,
      usage: 2500,
    });
    assert.deepEqual(valueReplicas({ ...base, currentReplicas: 0, pods: [], usage: 2500 }), {
      ok: true,
      replicas: 3,
      usage: 2500,
    });
    assert.deepEqual(valueReplicas({ ...base, pods: [], usage: 2500 }), {
      ok: false,
      error: 'unable to calculate ready pods: no pods returned by selector while calculating replica count',
    });
  });

  it('divides the usage by the per-pod target, and reports the usage per current replica', () => {
    const base = { statusReplicas: 4, targetPerPod: 1000, tolerance: 0.1 };
    assert.deepEqual(perPodReplicas({ ...base, usage: 4200 }), { replicas: 4, usage: 1050 });
    assert.deepEqual(perPodReplicas({ ...base, usage: 8500 }), { replicas: 9, usage: 2125 });
  });
});

class FakeClient implements MetricsClient {
  raw: PodMetricsInfo | string = new Map();
  object: number | string = 0;
  external: number[] | string = [];
  readonly queries: unknown[] = [];
  podMetrics(): never {
    throw new Error('not used');
  }
  rawMetric(q: unknown) {
    this.queries.push(q);
    const r = this.raw;
    return Promise.resolve(
      typeof r === 'string'
        ? { ok: false as const, error: r }
        : { ok: true as const, metrics: new Map(r), timestamp: now },
    );
  }
  objectMetric(q: { metricSelector: string }) {
    this.queries.push(q.metricSelector);
    const v = this.object;
    return Promise.resolve(
      typeof v === 'string'
        ? { ok: false as const, error: v }
        : { ok: true as const, value: v, timestamp: now },
    );
  }
  externalMetric(q: { selector: string }) {
    this.queries.push(q.selector);
    const v = this.external;
    return Promise.resolve(
      typeof v === 'string'
        ? { ok: false as const, error: v }
        : { ok: true as const, values: v, timestamp: now },
    );
  }
  close(): void {
    // Nothing held.
  }
}

function context(client: FakeClient, pods: Pod[] = three) {
  const events: string[][] = [];
  const hpa: HorizontalPodAutoscaler = { metadata: { name: 'web', namespace: 'ns' } };
  const ctx: MetricContext = {
    hpa,
    pods,
    selector: 'app=web',
    specReplicas: 3,
    statusReplicas: 3,
    metrics: client,
    mapper: () => ({ ok: true, resource: 'deployments.apps' }),
    now,
    settings: defaultCalculatorSettings,
    warn: (reason, message) => events.push([reason, message]),
  };
  return { ctx, events };
}

const sample = (value: number) => ({ value, timestamp: now, windowMs: 60_000 });
const podsSpec: MetricSpec = {
  type: 'Pods',
  pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '10' } },
};
const selector = {
  matchLabels: { queue: 'orders' },
  matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }],
};
const selectorText =
  '&LabelSelector{MatchLabels:map[string]string{queue: orders,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:tier,Operator:In,Values:[a b],},},}';

describe('Pods, Object and External metric proposals', () => {
  it('averages a Pods metric over the pods, a missing pod at the target on a scale-down', async () => {
    const client = new FakeClient();
    client.raw = new Map([
      ['a', sample(20_000)],
      ['b', sample(20_000)],
      ['c', sample(20_000)],
    ]);
    const { ctx } = context(client);
    assert.deepEqual(await computeReplicasForMetric(ctx, podsSpec), {
      ok: true,
      replicas: 6,
      metric: 'pods metric rps',
      status: { type: 'Pods', pods: { metric: { name: 'rps' }, current: { averageValue: '20' } } },
    });
    // 2 of 3 measured at 5 (a scale-down); c counts as 10: (5 + 5 + 10) / 3 = 6.67 → ceil(0.667 × 3) = 2.
    client.raw = new Map([
      ['a', sample(5000)],
      ['b', sample(5000)],
    ]);
    const down = await computeReplicasForMetric(ctx, podsSpec);
    assert.equal(down.ok && down.replicas, 2);
    // An unready pod counts as 0 on a scale-up: (30 + 30 + 0) / 3 = 20 → 6, not 3 × 3 = 9.
    client.raw = new Map([
      ['a', sample(30_000)],
      ['b', sample(30_000)],
      ['c', sample(30_000)],
    ]);
    const up = await computeReplicasForMetric(
      context(client, [pod('a'), pod('b'), pod('c', 'Pending')]).ctx,
      podsSpec,
    );
    assert.equal(up.ok && up.replicas, 6);
  });

  it('fails a Pods metric with FailedGetPodsMetric and kube’s wrapping', async () => {
    const client = new FakeClient();
    client.raw = 'no metrics returned from custom metrics API';
    const { ctx, events } = context(client);
    const inner = 'unable to get metric rps: no metrics returned from custom metrics API';
    assert.deepEqual(await computeReplicasForMetric(ctx, podsSpec), {
      ok: false,
      error: `failed to get pods metric value: ${inner}`,
      condition: {
        type: 'ScalingActive',
        status: 'False',
        reason: 'FailedGetPodsMetric',
        message: `the HPA was unable to compute the replica count: ${inner}`,
      },
    });
    assert.deepEqual(events, [['FailedGetPodsMetric', inner]]);
  });

  it('writes an Object metric’s value with its object, a per-pod one without', async () => {
    const client = new FakeClient();
    client.object = 6000;
    const { ctx } = context(client);
    const describedObject = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
    const metric = { name: 'hits', selector: { matchLabels: { verb: 'GET' } } };
    const byValue: MetricSpec = {
      type: 'Object',
      object: { describedObject, metric, target: { type: 'Value', value: '2' } },
    };
    assert.deepEqual(await computeReplicasForMetric(ctx, byValue), {
      ok: true,
      replicas: 9,
      metric: 'Deployment metric hits',
      status: { type: 'Object', object: { metric, current: { value: '6' }, describedObject } },
    });
    assert.deepEqual(client.queries, ['verb=GET']);
    const perPod: MetricSpec = {
      type: 'Object',
      object: { describedObject, metric, target: { type: 'AverageValue', averageValue: '500m' } },
    };
    assert.deepEqual(await computeReplicasForMetric(ctx, perPod), {
      ok: true,
      replicas: 12,
      metric:
        'external metric hits(&LabelSelector{MatchLabels:map[string]string{verb: GET,},MatchExpressions:[]LabelSelectorRequirement{},})',
      status: {
        type: 'Object',
        object: { metric, current: { averageValue: '2' }, describedObject: { kind: '', name: '' } },
      },
    });
  });

  it('fails an Object metric with the error after the object’s name, wrapped per target', async () => {
    const client = new FakeClient();
    client.object = 'unable to fetch metrics from custom metrics API: boom';
    const { ctx, events } = context(client);
    const describedObject = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
    const inner =
      'unable to get metric hits: Deployment on ns web/unable to fetch metrics from custom metrics API: boom';
    const spec = (target: MetricTarget): MetricSpec => ({
      type: 'Object',
      object: { describedObject, metric: { name: 'hits' }, target },
    });
    const v = await computeReplicasForMetric(ctx, spec({ type: 'Value', value: '1' }));
    assert.equal(!v.ok && v.error, `failed to get object metric value: ${inner}`);
    const a = await computeReplicasForMetric(ctx, spec({ type: 'AverageValue', averageValue: '1' }));
    assert.equal(
      !a.ok && a.error,
      `failed to get object metric value: failed to get hits object metric: ${inner}`,
    );
    assert.equal(!a.ok && a.condition.message, `the HPA was unable to compute the replica count: ${inner}`);
    const invalid = await computeReplicasForMetric(ctx, spec({ type: 'Value' }));
    assert.equal(
      !invalid.ok && invalid.error,
      'failed to get object metric value: invalid object metric source: neither a value target nor an average value target was set',
    );
    assert.deepEqual(
      events.map(([r]) => r),
      ['FailedGetObjectMetric', 'FailedGetObjectMetric', 'FailedGetObjectMetric'],
    );
  });

  it('sums an External metric’s values against a Value or per pod against an AverageValue', async () => {
    const client = new FakeClient();
    client.external = [40_000, 20_000];
    const { ctx } = context(client);
    const metric = { name: 'queue_length', selector };
    const byValue: MetricSpec = {
      type: 'External',
      external: { metric, target: { type: 'Value', value: '30' } },
    };
    assert.deepEqual(await computeReplicasForMetric(ctx, byValue), {
      ok: true,
      replicas: 6,
      metric: `external metric queue_length(${selectorText})`,
      status: { type: 'External', external: { metric, current: { value: '60' } } },
    });
    assert.deepEqual(client.queries, ['queue=orders,tier in (a,b)']);
    const perPod: MetricSpec = {
      type: 'External',
      external: { metric, target: { type: 'AverageValue', averageValue: '10' } },
    };
    const r = await computeReplicasForMetric(ctx, perPod);
    assert.deepEqual(r.ok && [r.replicas, r.status], [
      6,
      { type: 'External', external: { metric, current: { averageValue: '20' } } },
    ]);
  });

  it('fails an External metric with FailedGetExternalMetric, its selector printed as Go prints it', async () => {
    const client = new FakeClient();
    client.external = 'no metrics returned from external metrics API';
    const { ctx, events } = context(client);
    const inner = `unable to get external metric ns/queue_length/${selectorText}: no metrics returned from external metrics API`;
    const metric = { name: 'queue_length', selector };
    const byValue: MetricSpec = {
      type: 'External',
      external: { metric, target: { type: 'Value', value: '30' } },
    };
    const v = await computeReplicasForMetric(ctx, byValue);
    assert.equal(
      !v.ok && v.error,
      `failed to get queue_length external metric value: failed to get external metric queue_length: ${inner}`,
    );
    const perPod: MetricSpec = {
      type: 'External',
      external: { metric: { name: 'queue_length' }, target: { type: 'AverageValue', averageValue: '1' } },
    };
    const p = await computeReplicasForMetric(ctx, perPod);
    assert.equal(
      !p.ok && p.error,
      'failed to get queue_length external metric value: failed to get queue_length external metric: unable to get external metric ns/queue_length/nil: no metrics returned from external metrics API',
    );
    assert.deepEqual(events[0], ['FailedGetExternalMetric', inner]);
  });
});
