// The metrics clients' GETs of a group version this server serves (the simulated metrics.k8s.io)
// answered in process: a list with its selector, a Status for an error, nothing for what is not
// served here; and the resource metrics client reading PodMetrics through it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startMetricsFixture, type MetricsFixture } from '../simulation-metrics/testing/metrics-fixture.js';
import { localAnswer } from './local-getter.js';
import { listPodMetrics, resourceMetric } from './resource-metrics.js';
import type { APIAnswer, MetricsAPIGetter } from './metrics-api-getter.js';

const gv = { group: 'metrics.k8s.io', version: 'v1beta1' };
const signal = new AbortController().signal;

describe('local metrics answers', () => {
  let f: MetricsFixture;
  const ask = (path: string, group = gv) => localAnswer(f.groups, { gv: group, path, signal });
  const body = (a: APIAnswer | undefined): unknown =>
    JSON.parse(a !== undefined && 'body' in a ? a.body : '');

  before(async () => {
    f = await startMetricsFixture();
    await f.node('sim-a');
    await f.pod('web-1', {
      node: 'sim-a',
      labels: { app: 'web' },
      annotations: { 'capstan.dev/cpu-usage': '900m' },
    });
    await f.pod('web-2', { node: 'sim-a', labels: { app: 'web' } });
    await f.pod('db', { node: 'sim-a', labels: { app: 'db' } });
    await f.pod('pending', { node: 'sim-a', phase: 'Pending' });
  });
  after(() => f.close());

  it('lists with the label selector of the query, the namespace of the path', async () => {
    const answer = await ask('/apis/metrics.k8s.io/v1beta1/namespaces/default/pods?labelSelector=app%3Dweb');
    assert.equal(answer !== undefined && 'code' in answer ? answer.code : 0, 200);
    const list = body(answer) as { kind: string; items: { metadata: { name: string } }[] };
    assert.equal(list.kind, 'PodMetricsList');
    assert.deepEqual(
      list.items.map((i) => i.metadata.name),
      ['web-1', 'web-2'],
    );
  });

  it('answers an error as its Status, and nothing for what is not served here', async () => {
    const answer = await ask('/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/pending');
    assert.equal(answer !== undefined && 'code' in answer ? answer.code : 0, 404);
    assert.deepEqual(body(answer), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'podmetrics.metrics.k8s.io "default/pending" not found',
      reason: 'NotFound',
      details: { name: 'default/pending', group: 'metrics.k8s.io', kind: 'podmetrics' },
      code: 404,
    });
    assert.equal(await ask('/apis/metrics.k8s.io/v1beta1/namespaces/default/widgets'), undefined);
    assert.equal(await ask('/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/a/b'), undefined);
    const custom = { group: 'custom.metrics.k8s.io', version: 'v1beta2' };
    assert.equal(
      await ask('/apis/custom.metrics.k8s.io/v1beta2/namespaces/default/pods/%2A/rps', custom),
      undefined,
    );
  });

  it('gives the resource metrics client the pods’ CPU', async () => {
    const getter: MetricsAPIGetter = {
      groupVersions: () => Promise.resolve(['v1beta1']),
      get: async (g, path) =>
        (await localAnswer(f.groups, { gv: g, path, signal })) ?? { failed: 'NotFound' },
      close: () => undefined,
    };
    const listed = await listPodMetrics(getter, { namespace: 'default', labelSelector: 'app=web' });
    assert.ok(listed.ok);
    const cpu = resourceMetric(listed.items, { resource: 'cpu', container: '' });
    assert.ok(cpu.ok);
    assert.deepEqual(
      [...cpu.metrics].map(([name, s]) => [name, s.value, s.windowMs]),
      [
        ['web-1', 900, 15_000],
        ['web-2', 1, 15_000],
      ],
    );
  });
});
