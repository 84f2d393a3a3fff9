// The workqueue_* families as /metrics prints them: kube's names, help and types, one series per
// queue name, the bucket bounds of ExponentialBuckets(10e-9, 10, 10) written as Go writes them.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import type * as PromClient from 'prom-client';
import { goFloatText, registerWorkqueueMetrics } from './prom-workqueue-metrics.js';
import { WorkqueueMetrics } from './workqueue-metrics.js';

const prom = createRequire(import.meta.url)('prom-client') as typeof PromClient;

const bounds = [
  '1e-08',
  '1e-07',
  '1e-06',
  '9.999999999999999e-06',
  '9.999999999999999e-05',
  '0.001',
  '0.01',
  '0.1',
  '1',
  '10',
];

describe('workqueue metrics on a registry', () => {
  it('writes floats as Go does', () => {
    assert.equal(goFloatText(1e-8), '1e-08');
    assert.equal(goFloatText(0.0001), '0.0001');
    assert.equal(goFloatText(123456), '123456');
    assert.equal(goFloatText(1e6), '1e+06');
    assert.equal(goFloatText(1.5e21), '1.5e+21');
  });

  it('prints HELP and TYPE, and no series, before the queues are attached', async () => {
    const registry = new prom.Registry();
    registerWorkqueueMetrics(registry, () => undefined);
    const text = await registry.metrics();
    assert.match(text, /^# HELP workqueue_depth Current depth of workqueue$/m);
    assert.match(text, /^# TYPE workqueue_depth gauge$/m);
    assert.match(text, /^# TYPE workqueue_adds_total counter$/m);
    assert.match(text, /^# TYPE workqueue_queue_duration_seconds histogram$/m);
    assert.match(text, /^# TYPE workqueue_work_duration_seconds histogram$/m);
    assert.match(text, /^# TYPE workqueue_unfinished_work_seconds gauge$/m);
    assert.match(text, /^# TYPE workqueue_longest_running_processor_seconds gauge$/m);
    assert.match(text, /^# TYPE workqueue_retries_total counter$/m);
    assert.doesNotMatch(text, /^workqueue_/m);
  });

  it('prints each queue name series, durations in kube buckets', async () => {
    let now = 0;
    const m = new WorkqueueMetrics({ now: () => now });
    const registry = new prom.Registry();
    registerWorkqueueMetrics(registry, () => m);
    const q = m.queueMetrics('deployment');
    q.add('ns/a');
    now += 0.02; // 20 µs queued
    q.get('ns/a');
    now += 3; // 3 ms worked on
    q.done('ns/a');
    q.add('ns/b');
    q.get('ns/b');
    now += 1500;
    q.retry();
    const lines = (await registry.metrics()).split('\n').filter((l) => !l.startsWith('#') && l !== '');
    const name = 'name="deployment"';
    /** A histogram's lines: `cumulative`, the count under each bound. */
    const histogram = (metric: string, h: { cumulative: number[]; sum: number; count: number }): string[] => [
      ...bounds.map((le, i) => `${metric}_bucket{${name},le="${le}"} ${h.cumulative[i] ?? -1}`),
      `${metric}_bucket{${name},le="+Inf"} ${h.count}`,
      `${metric}_sum{${name}} ${h.sum}`,
      `${metric}_count{${name}} ${h.count}`,
    ];
    assert.deepEqual(lines, [
      `workqueue_depth{${name}} 0`,
      `workqueue_adds_total{${name}} 2`,
      // ns/b waited 0 s, under every bound; ns/a 20 µs, first under 1e-4.
      ...histogram('workqueue_queue_duration_seconds', {
        cumulative: [1, 1, 1, 1, 2, 2, 2, 2, 2, 2],
        sum: 0.00002,
        count: 2,
      }),
      // 3 ms: first under 0.01.
      ...histogram('workqueue_work_duration_seconds', {
        cumulative: [0, 0, 0, 0, 0, 0, 1, 1, 1, 1],
        sum: 0.003,
        count: 1,
      }),
      `workqueue_unfinished_work_seconds{${name}} 1.5`,
      `workqueue_longest_running_processor_seconds{${name}} 1.5`,
      `workqueue_retries_total{${name}} 1`,
    ]);
  });
});
