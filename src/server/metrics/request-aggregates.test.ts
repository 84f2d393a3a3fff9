// The request metrics counted without prom-client print exactly what its Counter and Histogram print.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import type * as PromClient from 'prom-client';
import { RequestAggregates } from './request-aggregates.js';
import {
  durationBuckets,
  requestLabels,
  sliDurationBuckets,
  sliLabelsOf,
  type RequestLabels,
} from './request-labels.js';

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
      { l: labels('POST', 'pods'), code: 201, seconds: 0.003, sliSeconds: 0.003, longRunning: false },
      { l: labels('GET', 'pods'), code: 200, seconds: 0.0051, sliSeconds: 0.0051, longRunning: false },
      // A webhook took most of it: the SLI leaves that out.
      { l: labels('POST', 'pods'), code: 201, seconds: 1.7, sliSeconds: 0.15, longRunning: false },
      { l: labels('POST', 'pods'), code: 409, seconds: 75, sliSeconds: 75, longRunning: false },
      // A dry run counts in the same SLI series (it has no dry_run label).
      { l: labels('POST', 'pods', 'All'), code: 201, seconds: 0.5, sliSeconds: 0.5, longRunning: false },
      { l: labels('WATCH', 'pods', 'All'), code: 200, seconds: 300, sliSeconds: 300, longRunning: true },
      { l: labels('GET', 'a"b\\c\nd'), code: 404, seconds: 0.025, sliSeconds: 0.025, longRunning: false },
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
    const sliLabels = requestLabels.filter((l) => l !== 'dry_run');
    const sli = new prom.Histogram({
      name: 'apiserver_request_sli_duration_seconds',
      help: 'sli',
      labelNames: sliLabels,
      buckets: sliDurationBuckets,
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
    ours.registerMetric(
      aggregates.sliDurationMetric({
        name: 'apiserver_request_sli_duration_seconds',
        help: 'sli',
      }) as unknown as PromClient.Metric,
    );
    for (const o of observations) {
      counter.inc({ ...o.l, code: String(o.code) });
      if (!o.longRunning) histogram.observe(o.l, o.seconds);
      if (!o.longRunning) sli.observe(sliLabelsOf(o.l), o.sliSeconds);
      aggregates.observe(o.l, o);
    }
    assert.equal(await ours.metrics(), await theirs.metrics());
  });
});
