// Admission's series: kube's buckets (a bound is inclusive), codes bounded at 600, and the chain's
// series made once per plugin, step type and operation.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AdmissionMetrics, stepBuckets, webhookBuckets } from './admission-metrics.js';
import { LatencyHistogram } from './latency-histogram.js';

describe('AdmissionMetrics', () => {
  it('counts an observation on a bound in that bound’s bucket, as Prometheus’ le', () => {
    const h = new LatencyHistogram(stepBuckets);
    for (const s of [0.001, 0.005, 0.0051, 3]) h.observe(s);
    assert.deepEqual(h.cumulative(), [2, 3, 3, 3, 3, 3, 4]);
    assert.equal(h.count, 4);
    assert.ok(Math.abs(h.sum - 3.0111) < 1e-9);
  });

  it('has kube’s buckets', () => {
    assert.deepEqual(stepBuckets, [0.005, 0.025, 0.1, 0.5, 1, 2.5]);
    assert.deepEqual(webhookBuckets, [0.005, 0.025, 0.1, 0.5, 1, 2.5, 10, 25]);
  });

  it('gives a plugin the same series each time it is asked', () => {
    const m = new AdmissionMetrics();
    const a = m.controllerOutcomes('LimitRanger', 'admit');
    const b = m.controllerOutcomes('LimitRanger', 'admit');
    assert.equal(a.CREATE.allowed, b.CREATE.allowed);
    assert.notEqual(a.CREATE.allowed, a.CREATE.rejected);
    assert.notEqual(a.CREATE.allowed, m.controllerOutcomes('LimitRanger', 'validate').CREATE.allowed);
    a.UPDATE.rejected.observe(0.01);
    const labels = [...m.controller.series()].filter((s) => s.value.count > 0).map((s) => s.labels);
    assert.deepEqual(labels, [{ name: 'LimitRanger', type: 'admit', operation: 'UPDATE', rejected: 'true' }]);
  });

  it('counts a webhook call and its rejection with codes past 600 as 600', () => {
    const m = new AdmissionMetrics();
    m.observeWebhook('w', {
      type: 'validating',
      operation: 'CREATE',
      seconds: 0.2,
      rejected: true,
      code: 999,
    });
    m.observeWebhookRejection('w', {
      type: 'validating',
      operation: 'CREATE',
      errorType: 'no_error',
      code: 999,
    });
    const [request] = [...m.webhookRequests.series()];
    assert.deepEqual(request?.labels, {
      name: 'w',
      type: 'validating',
      operation: 'CREATE',
      code: '600',
      rejected: 'true',
    });
    assert.equal(request.value.value, 1);
    const [rejection] = [...m.webhookRejections.series()];
    assert.equal(rejection?.labels['rejection_code'], '600');
    const [latency] = [...m.webhook.series()];
    assert.equal(latency?.value.count, 1);
  });
});
