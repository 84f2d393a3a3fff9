// metrics.k8s.io pods and nodes over real pods and nodes stores, as metrics-server answers: which
// pods and nodes have metrics, GET and LIST (a namespace, all of them, label and field selectors),
// its 404 texts, node sums and the table columns.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { NodeMetrics, PodMetrics } from '../../../api/metrics/v1beta1/types.js';
import { isStatusError } from '../../../machinery/errors/index.js';
import { internalContext } from '../../../registry/rest/context.js';
import { startMetricsFixture, type MetricsFixture } from './testing/metrics-fixture.js';

let f: MetricsFixture;
const inNs = (namespace = 'default') => internalContext({ namespace });
const cluster = internalContext();

const statusOf = async (p: Promise<unknown>): Promise<[number, string, string]> => {
  try {
    await p;
  } catch (err) {
    if (isStatusError(err)) return [err.status.code, err.reason, err.message];
    throw err;
  }
  return [200, '', ''];
};
const names = (items: readonly { metadata?: { name?: string; namespace?: string } }[]) =>
  items.map((m) => `${m.metadata?.namespace ?? ''}/${m.metadata?.name ?? ''}`);
const podList = async (ctx = inNs(), o: { labelSelector?: string; fieldSelector?: string } = {}) =>
  (await f.podMetrics.list(ctx, o)).items as PodMetrics[];

async function setUp(): Promise<void> {
  f = await startMetricsFixture();
  await f.node('sim-a');
  await f.node('sim-b', { annotations: { 'capstan.dev/cpu-usage': '1', 'capstan.dev/memory-usage': '1Gi' } });
  await f.node('stopped', { stopped: true });
  await f.node('real', { simulated: false });
  const usage = { 'capstan.dev/cpu-usage': '250m', 'capstan.dev/memory-usage': '64Mi' };
  await f.pod('web-1', { node: 'sim-a', labels: { app: 'web' }, annotations: usage });
  await f.pod('web-2', { node: 'sim-a', labels: { app: 'web' }, containers: ['app', 'log'] });
  await f.pod('db', { node: 'sim-b', labels: { app: 'db' }, sidecars: ['proxy'] });
  await f.pod('other', { node: 'sim-b', namespace: 'team' });
  await f.pod('pending', { node: 'sim-a', phase: 'Pending' });
  await f.pod('starting', { node: 'sim-a', containers: ['app', 'slow'], waiting: ['slow'] });
  await f.pod('done', { node: 'sim-a', phase: 'Succeeded' });
  await f.pod('orphan', { node: 'stopped' });
  await f.pod('elsewhere', { node: 'real' });
  await f.clock.advance(90_000);
}

describe('simulated metrics.k8s.io', () => {
  before(setUp);
  after(() => f.close());

  describe('PodMetrics', () => {
    it('gets a running pod’s metrics with its labels, the server’s time and a 15s window', async () => {
      const m = await f.podMetrics.get(inNs(), 'web-1', {});
      assert.deepEqual(m, {
        kind: 'PodMetrics',
        apiVersion: 'metrics.k8s.io/v1beta1',
        metadata: {
          name: 'web-1',
          namespace: 'default',
          creationTimestamp: '2026-03-01T00:01:30Z',
          labels: { app: 'web' },
        },
        timestamp: '2026-03-01T00:01:30Z',
        window: '15s',
        containers: [{ name: 'app', usage: { cpu: '250m', memory: '64Mi' } }],
      });
      assert.deepEqual(Object.keys(m), [
        'kind',
        'apiVersion',
        'metadata',
        'timestamp',
        'window',
        'containers',
      ]);
    });

    it('reports every running container, a running sidecar after the others', async () => {
      const web2 = (await f.podMetrics.get(inNs(), 'web-2', {})) as PodMetrics;
      assert.deepEqual(web2.containers, [
        { name: 'app', usage: { cpu: '1m', memory: '1Mi' } },
        { name: 'log', usage: { cpu: '1m', memory: '1Mi' } },
      ]);
      const db = (await f.podMetrics.get(inNs(), 'db', {})) as PodMetrics;
      assert.deepEqual(
        db.containers.map((c) => c.name),
        ['app', 'proxy'],
      );
    });

    it('answers 404 as metrics-server does for a missing pod and a pod without metrics', async () => {
      assert.deepEqual(await statusOf(f.podMetrics.get(inNs(), 'nope', {})), [
        404,
        'NotFound',
        'pods "nope" not found',
      ]);
      for (const name of ['pending', 'starting', 'done', 'orphan', 'elsewhere'])
        assert.deepEqual(await statusOf(f.podMetrics.get(inNs(), name, {})), [
          404,
          'NotFound',
          `podmetrics.metrics.k8s.io "default/${name}" not found`,
        ]);
    });

    it('lists a namespace’s pods with metrics, and every namespace’s, sorted', async () => {
      assert.deepEqual(names(await podList()), ['default/db', 'default/web-1', 'default/web-2']);
      assert.deepEqual(names(await podList(inNs('team'))), ['team/other']);
      assert.deepEqual(names(await podList(cluster)), [
        'default/db',
        'default/web-1',
        'default/web-2',
        'team/other',
      ]);
      assert.deepEqual(await podList(inNs('empty')), []);
    });

    it('lists by label selector and by metadata field selector; refuses other fields', async () => {
      assert.deepEqual(names(await podList(inNs(), { labelSelector: 'app=web' })), [
        'default/web-1',
        'default/web-2',
      ]);
      assert.deepEqual(names(await podList(cluster, { fieldSelector: 'metadata.namespace=team' })), [
        'team/other',
      ]);
      assert.deepEqual(names(await podList(inNs(), { fieldSelector: 'metadata.name!=db' })), [
        'default/web-1',
        'default/web-2',
      ]);
      assert.deepEqual(await statusOf(podList(inNs(), { fieldSelector: 'spec.nodeName=sim-a' })), [
        400,
        'BadRequest',
        '"spec.nodeName" is not a known field selector: only "metadata.name", "metadata.namespace"',
      ]);
    });

    it('prints the name, the summed usage and the window', async () => {
      const list = await f.podMetrics.list(inNs(), { labelSelector: 'app=web' });
      const table = f.podMetrics.convertToTable(inNs(), list, { includeObject: 'None' });
      assert.deepEqual(
        table.columnDefinitions.map((c) => [c.name, c.format]),
        [
          ['Name', 'name'],
          ['cpu', 'quantity'],
          ['memory', 'quantity'],
          ['Window', 'duration'],
        ],
      );
      assert.deepEqual(
        table.rows.map((r) => r.cells),
        [
          ['web-1', '250m', '64Mi', '15s'],
          ['web-2', '2m', '2Mi', '15s'],
        ],
      );
    });
  });

  describe('NodeMetrics', () => {
    it('sums a node’s pods with metrics over its own base', async () => {
      const a = (await f.nodeMetrics.get(cluster, 'sim-a', {})) as NodeMetrics;
      // 50m + web-1 250m + web-2 2 × 1m; 128Mi + 64Mi + 2 × 1Mi. Pending, starting and done add nothing.
      assert.deepEqual(a.usage, { cpu: '302m', memory: '194Mi' });
      assert.equal(a.kind, 'NodeMetrics');
      assert.deepEqual(a.metadata, {
        name: 'sim-a',
        creationTimestamp: '2026-03-01T00:01:30Z',
        labels: { 'capstan.dev/simulated': 'true', tier: 'sim' },
      });
      assert.equal(a.window, '15s');
      // An annotated base of 1 and 1Gi, db's two containers and team/other's one.
      const b = (await f.nodeMetrics.get(cluster, 'sim-b', {})) as NodeMetrics;
      assert.deepEqual(b.usage, { cpu: '1003m', memory: '1027Mi' });
    });

    it('answers 404 for a missing node and one no simulated kubelet answers for', async () => {
      assert.deepEqual(await statusOf(f.nodeMetrics.get(cluster, 'missing', {})), [
        404,
        'NotFound',
        'node "missing" not found',
      ]);
      for (const name of ['stopped', 'real'])
        assert.deepEqual(await statusOf(f.nodeMetrics.get(cluster, name, {})), [
          404,
          'NotFound',
          `nodemetrics.metrics.k8s.io "${name}" not found`,
        ]);
    });

    it('lists the nodes with metrics by name, by label and by field selector', async () => {
      const list = async (o: { labelSelector?: string; fieldSelector?: string } = {}) =>
        ((await f.nodeMetrics.list(cluster, o)).items as NodeMetrics[]).map((m) => m.metadata?.name);
      assert.deepEqual(await list(), ['sim-a', 'sim-b']);
      assert.deepEqual(await list({ labelSelector: 'tier=real' }), []);
      assert.deepEqual(await list({ fieldSelector: 'metadata.name=sim-b' }), ['sim-b']);
      const all = await f.nodeMetrics.list(cluster, {});
      assert.deepEqual(
        (all.items as NodeMetrics[]).map((m) => m.usage),
        [
          { cpu: '302m', memory: '194Mi' },
          { cpu: '1003m', memory: '1027Mi' },
        ],
      );
    });
  });
});
