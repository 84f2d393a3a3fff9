// The request metrics counted without prom-client print exactly what its Counter and Histogram print.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import type * as PromClient from 'prom-client';
import { RequestAggregates } from './request-aggregates.js';
import { durationBuckets, requestLabels, type RequestLabels } from './request-labels.js';

const prom = createRequire(import.meta.url)('prom-client') as typeof PromClient;

const labels = (verb: string, resource: string, dryRun = ''): RequestLabels => ({
  verb,
  dry_run: dryRun,
  group: '',
  version: 'v1',
  resource,
  subresource: '',
  scope: 'resource',
  component: 'apiserver',
});

describe('RequestAggregates', () => {
  it('renders as prom-client would', async () => {
    const observations = [
      { l: labels('POST', 'pods'), code: 201, seconds: 0.003, longRunning: false },
      { l: labels('GET', 'pods'), code: 200, seconds: 0.0051, longRunning: false },
      { l: labels('POST', 'pods'), code: 201, seconds: 1.7, longRunning: false },
      { l: labels('POST', 'pods'), code: 409, seconds: 75, longRunning: false },
      { l: labels('WATCH', 'pods', 'All'), code: 200, seconds: 300, longRunning: true },
      { l: labels('GET', 'a"b\\c\nd'), code: 404, seconds: 0.025, longRunning: false },
    ];
    const theirs = new prom.Registry();
    const counter = new prom.Counter({
      name: 'apiserver_request_total',
      help: 'total',
      labelNames: [...requestLabels, 'code'],
      registers: [theirs],
    });
    const histogram = new prom.Histogram({
      name: 'apiserver_request_duration_seconds',
      help: 'duration',
      labelNames: requestLabels,
      buckets: durationBuckets,
      registers: [theirs],
    });
    const ours = new prom.Registry();
    const aggregates = new RequestAggregates();
    ours.registerMetric(
      aggregates.totalMetric({
        name: 'apiserver_request_total',
        help: 'total',
      }) as unknown as PromClient.Metric,
    );
    ours.registerMetric(
      aggregates.durationMetric({
        name: 'apiserver_request_duration_seconds',
        help: 'duration',
      }) as unknown as PromClient.Metric,
    );
    for (const o of observations) {
      counter.inc({ ...o.l, code: String(o.code) });
      if (!o.longRunning) histogram.observe(o.l, o.seconds);
      aggregates.observe(o.l, o);
    }
    assert.equal(await ours.metrics(), await theirs.metrics());
  });
});
