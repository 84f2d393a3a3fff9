// The HPA controller against a custom and external metrics adapter of its own, as an operator's
// test runs one: an HTTPS server (Node's https, its own CA) behind the APIServices
// v1beta2.custom.metrics.k8s.io and v1beta1.external.metrics.k8s.io, reached through a Service and
// its Endpoints as kube-controller-manager reaches it through kube-apiserver's aggregator. The
// adapter answers what the test says; the HPAs scale their Deployments by it on the virtual clock.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { nonLoopbackAddress, tlsMaterial } from './support/webhook-server.js';
import { waitFor } from './support/wait-for.js';
import { jsonCall, type JSONReply } from './support/json-call.js';

const adapterNs = 'custom-metrics';
const adapterService = 'custom-metrics-apiserver';
const custom = { group: 'custom.metrics.k8s.io', version: 'v1beta2' };
const external = { group: 'external.metrics.k8s.io', version: 'v1beta1' };

interface AdapterRequest {
  /** The path decoded. */
  readonly path: string;
  /** The path as sent. */
  readonly raw: string;
  readonly query: URLSearchParams;
  readonly user: string | undefined;
}

/**
 * What the adapter answers: the requests a second the app serves, shared evenly by its running
 * pods (the pods metric), and an external metric's value.
 */
interface AdapterValues {
  requestsPerSecond: number;
  queueDepth: string;
}

let server: CapstanServer;
let adapter: Server;
const requests: AdapterRequest[] = [];
const values: AdapterValues = { requestsPerSecond: 60, queueDepth: '100' };

const call = (method: string, path: string, body?: unknown): Promise<JSONReply<unknown>> =>
  jsonCall<unknown>(server, { method, path, body });

async function create(path: string, body: unknown): Promise<void> {
  const res = await call('POST', path, body);
  assert.equal(res.status, 201, JSON.stringify(res.body));
}

/** The running pods of `app` in default, as the adapter describes them. */
async function runningPods(app: string): Promise<string[]> {
  const { body } = await call('GET', `/api/v1/namespaces/default/pods?labelSelector=app%3D${app}`);
  const items = (body as { items: { metadata: { name: string }; status?: { phase?: string } }[] }).items;
  return items.filter((p) => p.status?.phase === 'Running').map((p) => p.metadata.name);
}

const resourceList = (gv: { group: string; version: string }, name: string, kind: string): unknown => ({
  kind: 'APIResourceList',
  apiVersion: 'v1',
  groupVersion: `${gv.group}/${gv.version}`,
  resources: [{ name, singularName: '', namespaced: true, kind, verbs: ['get'] }],
});

/** The adapter's answer to one GET, as a prometheus-adapter would give it. */
async function answer(path: string, query: URLSearchParams): Promise<{ code: number; body: unknown }> {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  if (path === `/apis/${custom.group}/${custom.version}`)
    return { code: 200, body: resourceList(custom, 'pods/http_requests', 'MetricValueList') };
  if (path === `/apis/${external.group}/${external.version}`)
    return { code: 200, body: resourceList(external, 'queue_depth', 'ExternalMetricValueList') };
  if (path === `/apis/${custom.group}/${custom.version}/namespaces/default/pods/*/http_requests`) {
    const app = (query.get('labelSelector') ?? '').replace(/^app=/, '');
    const pods = await runningPods(app);
    const items = pods.map((name) => ({
      describedObject: { kind: 'Pod', namespace: 'default', name, apiVersion: '/v1' },
      metric: { name: 'http_requests', selector: null },
      timestamp: now,
      windowSeconds: 60,
      value: `${String(Math.round((1000 * values.requestsPerSecond) / pods.length))}m`,
    }));
    return {
      code: 200,
      body: { kind: 'MetricValueList', apiVersion: `${custom.group}/${custom.version}`, metadata: {}, items },
    };
  }
  if (path === `/apis/${external.group}/${external.version}/namespaces/default/queue_depth`)
    return {
      code: 200,
      body: {
        kind: 'ExternalMetricValueList',
        apiVersion: `${external.group}/${external.version}`,
        metadata: {},
        items: [
          {
            metricName: 'queue_depth',
            metricLabels: { queue: query.get('labelSelector') ?? '' },
            timestamp: now,
            value: values.queueDepth,
          },
        ],
      },
    };
  return {
    code: 404,
    body: { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 },
  };
}

function startAdapter(tls: { cert: string; key: string }): Promise<Server> {
  const https = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://adapter');
    // client-go escapes the `*` of pods/*/<metric> (%2A), as Go's URL escapes a path.
    const path = decodeURIComponent(url.pathname);
    const user = req.headers['x-remote-user'];
    requests.push({
      path,
      raw: url.pathname,
      query: url.searchParams,
      user: typeof user === 'string' ? user : undefined,
    });
    answer(path, url.searchParams).then(
      ({ code, body }) => {
        res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      },
      (err: unknown) => {
        res.writeHead(500).end(String(err));
      },
    );
  });
  return new Promise((resolve) => {
    https.listen(0, '0.0.0.0', () => {
      resolve(https);
    });
  });
}

/** The Service (and Endpoints on the machine's own address) and APIService of one metrics API. */
async function registerAdapter(gv: { group: string; version: string }, caBundle: string): Promise<void> {
  await create('/apis/apiregistration.k8s.io/v1/apiservices', {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name: `${gv.version}.${gv.group}` },
    spec: {
      group: gv.group,
      version: gv.version,
      groupPriorityMinimum: 100,
      versionPriority: 100,
      service: { namespace: adapterNs, name: adapterService },
      caBundle,
    },
  });
}

/** Each probe moves the clock one HPA sync period on. */
async function syncedHPA(name: string): Promise<HPA> {
  await server.clock.advance('15s');
  return (await call('GET', `/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/${name}`))
    .body as HPA;
}

async function replicas(name: string): Promise<number> {
  const { body } = await call('GET', `/apis/apps/v1/namespaces/default/deployments/${name}`);
  return (body as { spec: { replicas: number } }).spec.replicas;
}

function deployment(name: string, replicaCount: number): unknown {
  const labels = { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas: replicaCount,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'nginx' }] } },
    },
  };
}

function hpa(name: string, metric: unknown): unknown {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
      minReplicas: 1,
      maxReplicas: 10,
      metrics: [metric],
    },
  };
}

interface HPA {
  status?: {
    currentReplicas?: number;
    desiredReplicas?: number;
    currentMetrics?: {
      pods?: { current?: { averageValue?: string } };
      external?: { current?: { averageValue?: string } };
    }[];
    conditions?: { type: string; status: string; reason?: string }[];
  };
}

const scalingActive = (h: HPA): string | undefined => {
  const c = h.status?.conditions?.find((x) => x.type === 'ScalingActive');
  return c === undefined ? undefined : `${c.status}/${c.reason ?? ''}`;
};

const address = nonLoopbackAddress();

describe('the HPA controller against a metrics adapter behind APIServices', () => {
  before(async () => {
    if (address === undefined) return;
    const tls = tlsMaterial([`${adapterService}.${adapterNs}.svc`]);
    adapter = await startAdapter(tls);
    server = await startCapstan({ scheme: 'http', clock: 'virtual', simulate: { nodes: 2 } });
    await create('/api/v1/namespaces', { metadata: { name: adapterNs } });
    const port = (adapter.address() as AddressInfo).port;
    await create(`/api/v1/namespaces/${adapterNs}/services`, {
      metadata: { name: adapterService },
      spec: { ports: [{ name: 'https', port: 443, targetPort: port }] },
    });
    await create(`/api/v1/namespaces/${adapterNs}/endpoints`, {
      metadata: { name: adapterService },
      subsets: [{ addresses: [{ ip: address }], ports: [{ name: 'https', port }] }],
    });
    const caBundle = Buffer.from(tls.ca).toString('base64');
    for (const gv of [custom, external]) await registerAdapter(gv, caBundle);
    for (const gv of [custom, external])
      await waitFor(
        `${gv.version}.${gv.group} Available`,
        async () => {
          const { body } = await call(
            'GET',
            `/apis/apiregistration.k8s.io/v1/apiservices/${gv.version}.${gv.group}`,
          );
          const conditions = (body as { status?: { conditions?: { type: string; status: string }[] } }).status
            ?.conditions;
          return conditions?.find((c) => c.type === 'Available')?.status;
        },
        (s) => s === 'True',
      );
  });

  after(async () => {
    if (address === undefined) return;
    await server.stop();
    await new Promise((resolve) => adapter.close(resolve));
  });

  it('scales on a Pods metric the adapter reports per pod', { timeout: 30_000 }, async (t) => {
    if (address === undefined) {
      t.skip('no non-loopback IPv4 address on this machine: Endpoints may not name a loopback one');
      return;
    }
    await create('/apis/apps/v1/namespaces/default/deployments', deployment('web', 2));
    await waitFor(
      'two running web pods',
      () => runningPods('web'),
      (names) => names.length === 2,
    );
    await create(
      '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers',
      hpa('web', {
        type: 'Pods',
        pods: { metric: { name: 'http_requests' }, target: { type: 'AverageValue', averageValue: '10' } },
      }),
    );
    // 60 a second over 2 pods, 30 a pod against 10: three times the pods, ceil(2 × 3) = 6 (or
    // over 4 pods, if the Deployment moved between two syncs: ceil(4 × 1.5) = 6).
    const scaled = await waitFor(
      'the HPA to want 6',
      () => syncedHPA('web'),
      (h) => h.status?.desiredReplicas === 6,
    );
    assert.equal(scalingActive(scaled), 'True/ValidMetricFound');
    await waitFor(
      'the Deployment at 6 replicas',
      () => replicas('web'),
      (n) => n === 6,
    );
    // Over 6 running pods, 10 a pod: on target, so the count holds.
    await waitFor(
      'six running web pods',
      () => runningPods('web'),
      (names) => names.length === 6,
    );
    const settled = await waitFor(
      'the HPA to read 10 a pod',
      () => syncedHPA('web'),
      (h) => h.status?.currentMetrics?.[0]?.pods?.current?.averageValue === '10',
    );
    assert.equal(settled.status?.desiredReplicas, 6);
    assert.equal(await replicas('web'), 6);
    const asked = requests.filter((r) => r.path.endsWith('/pods/*/http_requests'));
    assert.ok(asked.length > 0, 'the adapter was asked for the pods metric');
    assert.ok(asked[0] !== undefined);
    assert.equal(
      asked[0].raw,
      `/apis/${custom.group}/${custom.version}/namespaces/default/pods/%2A/http_requests`,
    );
    assert.equal(asked[0].query.get('labelSelector'), 'app=web');
    assert.equal(asked[0].user, 'system:kube-controller-manager');
  });

  it('scales on an External metric, and reports the adapter losing it', { timeout: 30_000 }, async (t) => {
    if (address === undefined) {
      t.skip('no non-loopback IPv4 address on this machine: Endpoints may not name a loopback one');
      return;
    }
    await create('/apis/apps/v1/namespaces/default/deployments', deployment('worker', 1));
    await waitFor(
      'a running worker pod',
      () => runningPods('worker'),
      (names) => names.length === 1,
    );
    await create(
      '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers',
      hpa('worker', {
        type: 'External',
        external: {
          metric: { name: 'queue_depth', selector: { matchLabels: { queue: 'jobs' } } },
          target: { type: 'AverageValue', averageValue: '20' },
        },
      }),
    );
    // 100 queued against 20 a pod: ceil(100 / 20) = 5.
    const scaled = await waitFor(
      'the HPA to want 5',
      () => syncedHPA('worker'),
      (h) => h.status?.desiredReplicas === 5,
    );
    // kube's averageValue: the metric's sum over the replicas the target had at that sync.
    const current = scaled.status?.currentReplicas ?? 0;
    assert.equal(
      scaled.status?.currentMetrics?.[0]?.external?.current?.averageValue,
      String(Math.ceil(100 / current)),
    );
    await waitFor(
      'the Deployment at 5 replicas',
      () => replicas('worker'),
      (n) => n === 5,
    );
    const asked = requests.filter((r) => r.path.endsWith('/queue_depth'));
    assert.equal(asked[0]?.query.get('labelSelector'), 'queue=jobs');
    // The adapter stops knowing the metric: kube's FailedGetExternalMetric, the replicas kept.
    values.queueDepth = 'not-a-quantity';
    const failing = await waitFor(
      'ScalingActive False',
      () => syncedHPA('worker'),
      (h) => scalingActive(h) === 'False/FailedGetExternalMetric',
    );
    assert.equal(failing.status?.desiredReplicas, 5);
    assert.equal(await replicas('worker'), 5);
  });
});
