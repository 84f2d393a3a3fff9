// The custom and external metrics clients over a fake getter, as kube's custom_metrics and
// external_metrics clients and metrics/client.go read them: the preferred version from discovery,
// the paths and parameters, both MetricValueList versions, and client-go's error texts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getObjectMetric, getRawMetric, preferredCustomMetricsVersion } from './custom-metrics.js';
import { getExternalMetric } from './external-metrics.js';
import type { APIAnswer, MetricsAPIGetter } from './metrics-api-getter.js';

/** Answers each path from a table (404 page otherwise) and remembers what it was asked. */
class FakeGetter implements MetricsAPIGetter {
  readonly asked: string[] = [];
  readonly versions: string[];
  readonly answers: Readonly<Record<string, APIAnswer>>;
  constructor(versions: string[], answers: Readonly<Record<string, APIAnswer>> = {}) {
    this.versions = versions;
    this.answers = answers;
  }
  groupVersions(): Promise<readonly string[]> {
    return Promise.resolve(this.versions);
  }
  get(_gv: { group: string; version: string }, path: string): Promise<APIAnswer> {
    this.asked.push(path);
    return Promise.resolve(
      this.answers[path] ?? { code: 404, body: '404 page not found\n', contentType: 'text/plain' },
    );
  }
  close(): void {
    // Nothing held.
  }
}

const ok = (body: unknown): APIAnswer => ({ code: 200, body: JSON.stringify(body) });
const at = '2026-03-01T00:00:00Z';
const podValue = (name: string, value: string, extra: object = {}) => ({
  describedObject: { kind: 'Pod', namespace: 'ns', name, apiVersion: '/v1' },
  metric: { name: 'rps', selector: null },
  timestamp: at,
  value,
  ...extra,
});
const podsPath = '/apis/custom.metrics.k8s.io/v1beta2/namespaces/ns/pods/%2A/rps';
const query = { namespace: 'ns', metricName: 'rps', selector: 'app=web', metricSelector: '' };
const mapper = () => ({ ok: true as const, resource: 'deployments.apps' });

describe('custom metrics client', () => {
  it('picks the preferred known version, as discovery.go chooses it', async () => {
    const pick = (versions: string[]) => preferredCustomMetricsVersion(new FakeGetter(versions));
    assert.deepEqual(await pick([]), {
      ok: false,
      error: 'no custom metrics API (custom.metrics.k8s.io) registered',
    });
    assert.deepEqual(await pick(['v1alpha1']), {
      ok: false,
      error: 'no known available metric versions found',
    });
    assert.deepEqual(await pick(['v1beta1', 'v1beta2']), { ok: true, version: 'v1beta1' });
    assert.deepEqual(await pick(['v2', 'v1beta2', 'v1beta1']), { ok: true, version: 'v1beta2' });
  });

  it('reads pods metrics of v1beta2 at pods/*/<metric> with both selectors', async () => {
    const path = `${podsPath}?labelSelector=app%3Dweb&metricLabelSelector=verb+in+%28GET%2CPUT%29`;
    const g = new FakeGetter(['v1beta2', 'v1beta1'], {
      [path]: ok({
        kind: 'MetricValueList',
        apiVersion: 'custom.metrics.k8s.io/v1beta2',
        items: [podValue('a', '1500m', { windowSeconds: 30 }), podValue('b', '2')],
      }),
    });
    const r = await getRawMetric(g, { ...query, metricSelector: 'verb in (GET,PUT)' });
    assert.deepEqual(g.asked, [path]);
    assert.ok(r.ok);
    assert.deepEqual(Object.fromEntries(r.metrics), {
      a: { value: 1500, timestamp: Date.parse(at), windowMs: 30_000 },
      b: { value: 2000, timestamp: Date.parse(at), windowMs: 60_000 },
    });
  });

  it('reads a v1beta1 list, its window in `window`', async () => {
    const path = '/apis/custom.metrics.k8s.io/v1beta1/namespaces/ns/pods/%2A/rps?labelSelector=app%3Dweb';
    const item = { describedObject: { name: 'a' }, metricName: 'rps', timestamp: at, window: 10, value: '3' };
    const g = new FakeGetter(['v1beta1'], {
      [path]: ok({ kind: 'MetricValueList', apiVersion: 'custom.metrics.k8s.io/v1beta1', items: [item] }),
    });
    const r = await getRawMetric(g, query);
    assert.ok(r.ok);
    assert.deepEqual(r.metrics.get('a'), { value: 3000, timestamp: Date.parse(at), windowMs: 10_000 });
  });

  it('words a missing metric, an adapter’s Status and an empty list as kube does', async () => {
    const path = `${podsPath}?labelSelector=app%3Dweb`;
    assert.deepEqual(await getRawMetric(new FakeGetter(['v1beta2']), query), {
      ok: false,
      error:
        'unable to fetch metrics from custom metrics API: the server could not find the requested resource (get pods.custom.metrics.k8s.io *)',
    });
    const status = {
      kind: 'Status',
      status: 'Failure',
      message: 'the server could not find the metric rps for pods',
      code: 404,
    };
    const notFound = new FakeGetter(['v1beta2'], { [path]: { code: 404, body: JSON.stringify(status) } });
    assert.deepEqual(await getRawMetric(notFound, query), {
      ok: false,
      error:
        'unable to fetch metrics from custom metrics API: the server could not find the metric rps for pods',
    });
    const unavailable = new FakeGetter(['v1beta2'], { [path]: { failed: 'ServiceUnavailable' } });
    assert.deepEqual(await getRawMetric(unavailable, query), {
      ok: false,
      error:
        'unable to fetch metrics from custom metrics API: the server is currently unable to handle the request (get pods.custom.metrics.k8s.io *)',
    });
    const empty = new FakeGetter(['v1beta2'], { [path]: ok({ kind: 'MetricValueList', items: [] }) });
    assert.deepEqual(await getRawMetric(empty, query), {
      ok: false,
      error: 'no metrics returned from custom metrics API',
    });
  });

  it('reads an object’s one value at <resource>/<name>/<metric>, a namespace’s at metrics/<metric>', async () => {
    const objectPath = '/apis/custom.metrics.k8s.io/v1beta2/namespaces/ns/deployments.apps/web/hits';
    const nsPath = '/apis/custom.metrics.k8s.io/v1beta2/namespaces/ns/metrics/hits?metricLabelSelector=a%3Db';
    const list = (n: number) =>
      ok({ kind: 'MetricValueList', items: Array.from({ length: n }, () => podValue('x', '7')) });
    const g = new FakeGetter(['v1beta2'], { [objectPath]: list(1), [nsPath]: list(2) });
    const q = { namespace: 'ns', metricName: 'hits', metricSelector: '', mapper };
    const object = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
    assert.deepEqual(await getObjectMetric(g, { ...q, object }), {
      ok: true,
      value: 7000,
      timestamp: Date.parse(at),
    });
    const namespace = { apiVersion: 'v1', kind: 'Namespace', name: 'elsewhere' };
    assert.deepEqual(await getObjectMetric(g, { ...q, object: namespace, metricSelector: 'a=b' }), {
      ok: false,
      error:
        'unable to fetch metrics from custom metrics API: the custom metrics API server returned 2 results when we asked for exactly one',
    });
    assert.deepEqual(g.asked, [objectPath, nsPath]);
    const unmapped = () => ({
      ok: false as const,
      error: 'no matches for kind "Widget" in group "example.com"',
    });
    const widget = { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w' };
    assert.deepEqual(await getObjectMetric(g, { ...q, object: widget, mapper: unmapped }), {
      ok: false,
      error:
        'unable to fetch metrics from custom metrics API: unable to map kind Widget.example.com to resource: no matches for kind "Widget" in group "example.com"',
    });
    assert.deepEqual(await getObjectMetric(new FakeGetter(['v1beta2']), { ...q, object }), {
      ok: false,
      error:
        'unable to fetch metrics from custom metrics API: the server could not find the requested resource (get deployments.apps.custom.metrics.k8s.io web)',
    });
  });
});

describe('external metrics client', () => {
  const path =
    '/apis/external.metrics.k8s.io/v1beta1/namespaces/ns/queue_length?labelSelector=queue%3Dorders';
  const q = { namespace: 'ns', metricName: 'queue_length', selector: 'queue=orders' };

  it('reads every value at v1beta1/namespaces/<ns>/<metric>', async () => {
    const items = [
      { metricName: 'queue_length', metricLabels: { queue: 'orders' }, timestamp: at, value: '40' },
      { metricName: 'queue_length', timestamp: at, value: 2.5 },
    ];
    const g = new FakeGetter([], { [path]: ok({ kind: 'ExternalMetricValueList', items }) });
    assert.deepEqual(await getExternalMetric(g, q), {
      ok: true,
      values: [40_000, 2500],
      timestamp: Date.parse(at),
    });
  });

  it('words a missing API, an unavailable one and an empty list as kube does', async () => {
    assert.deepEqual(await getExternalMetric(new FakeGetter([]), q), {
      ok: false,
      error:
        'unable to fetch metrics from external metrics API: the server could not find the requested resource (get queue_length.external.metrics.k8s.io)',
    });
    const down = new FakeGetter([], { [path]: { failed: 'ServiceUnavailable' } });
    assert.deepEqual(await getExternalMetric(down, q), {
      ok: false,
      error:
        'unable to fetch metrics from external metrics API: the server is currently unable to handle the request (get queue_length.external.metrics.k8s.io)',
    });
    const broken = new FakeGetter([], { [path]: { code: 500, body: 'boom\n', contentType: 'text/plain' } });
    assert.deepEqual(await getExternalMetric(broken, q), {
      ok: false,
      error:
        'unable to fetch metrics from external metrics API: an error on the server ("boom") has prevented the request from succeeding (get queue_length.external.metrics.k8s.io)',
    });
    const empty = new FakeGetter([], { [path]: ok({ kind: 'ExternalMetricValueList', items: [] }) });
    assert.deepEqual(await getExternalMetric(empty, q), {
      ok: false,
      error: 'no metrics returned from external metrics API',
    });
  });
});
