// The simulated cluster on a virtual clock: a pod deleted with its 30 s grace period is removed by
// its kubelet once the test advances the clock past it, and not before; an HPA scales a Deployment
// up once its pods' annotated CPU usage (the simulated metrics.k8s.io) rises. No wall-clock wait.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { waitFor } from './support/wait-for.js';

let server: CapstanServer;
let token: string;
before(async () => {
  server = await startCapstan({ scheme: 'http', clock: 'virtual', simulate: { nodes: 1 } });
  token = server.kubeConfig.users[0]?.user.token ?? '';
});
after(() => server.stop());

const podPath = '/api/v1/namespaces/default/pods';

async function call(method: string, path: string, body?: unknown): Promise<{ code: number; body: unknown }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { code: res.status, body: await res.json() };
}

const phase = async (name: string): Promise<string> => {
  const { code, body } = await call('GET', `${podPath}/${name}`);
  if (code === 404) return 'Gone';
  const pod = body as { status?: { phase?: string }; metadata?: { deletionTimestamp?: string } };
  return `${pod.status?.phase ?? ''}${pod.metadata?.deletionTimestamp === undefined ? '' : '+deleting'}`;
};

describe('controllers on the virtual clock', () => {
  it("removes a deleted pod once advance('31s') passes its grace period", { timeout: 15_000 }, async () => {
    const started = performance.now();
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      // Its containers ignore SIGTERM (a stop time past the grace period), so the kubelet waits it out.
      metadata: { name: 'graceful', annotations: { 'capstan.dev/stop-seconds': '3600' } },
      spec: { containers: [{ name: 'app', image: 'nginx' }] },
    };
    assert.equal((await call('POST', podPath, pod)).code, 201);
    await waitFor(
      'the pod running',
      () => phase('graceful'),
      (p) => p === 'Running',
    );
    const deleted = await call('DELETE', `${podPath}/graceful`);
    assert.equal(deleted.code, 200);
    const deletionTimestamp = (deleted.body as { metadata: { deletionTimestamp: string } }).metadata
      .deletionTimestamp;
    assert.ok(Date.parse(deletionTimestamp) - server.clock.now() > 29_000, 'a 30 s grace period');
    await server.clock.advance('29s');
    assert.equal(await phase('graceful'), 'Running+deleting');
    await server.clock.advance('2s');
    await waitFor(
      'the pod gone',
      () => phase('graceful'),
      (p) => p === 'Gone',
    );
    assert.ok(performance.now() - started < 10_000, 'a 30 s grace period took no real 30 s');
  });

  it('scales a Deployment up once its pods report more CPU', { timeout: 30_000 }, async () => {
    const labels = { app: 'busy' };
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'busy' },
      spec: {
        replicas: 2,
        selector: { matchLabels: labels },
        template: {
          // Half the 500m each pod requests: on the HPA's 50% target.
          metadata: { labels, annotations: { 'capstan.dev/cpu-usage': '250m' } },
          spec: { containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '500m' } } }] },
        },
      },
    };
    assert.equal((await call('POST', '/apis/apps/v1/namespaces/default/deployments', deployment)).code, 201);
    const running = async (): Promise<string[]> => {
      const { body } = await call('GET', `${podPath}?labelSelector=app%3Dbusy`);
      const items = (body as { items: { metadata: { name: string }; status?: { phase?: string } }[] }).items;
      return items.filter((p) => p.status?.phase === 'Running').map((p) => p.metadata.name);
    };
    const pods = await waitFor('two running pods', running, (names) => names.length === 2);
    // Ready for longer than a metrics window, so the HPA counts their samples.
    await server.clock.advance('30s');
    const hpa = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'busy' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'busy' },
        minReplicas: 1,
        maxReplicas: 5,
        metrics: [
          {
            type: 'Resource',
            resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } },
          },
        ],
      },
    };
    const hpaPath = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
    assert.equal((await call('POST', hpaPath, hpa)).code, 201);
    const replicas = async (): Promise<number> => {
      const { body } = await call('GET', '/apis/apps/v1/namespaces/default/deployments/busy');
      return (body as { spec: { replicas: number } }).spec.replicas;
    };
    // Each probe moves the clock one HPA sync period on; at 50% the replica count holds.
    const sync = async (): Promise<HPAStatus> => {
      await server.clock.advance('15s');
      return (await call('GET', `${hpaPath}/busy`)).body as HPAStatus;
    };
    await waitFor('the HPA to read 50% CPU', sync, (h) => utilization(h) === 50);
    assert.equal(await replicas(), 2);
    const patch = { metadata: { annotations: { 'capstan.dev/cpu-usage': '900m' } } };
    for (const name of pods) {
      const res = await fetch(`${server.url}${podPath}/${name}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify(patch),
      });
      assert.equal(res.status, 200);
    }
    // 900m of 500m is 180%: ceil(2 × 180 / 50) = 4 pods.
    const scaled = await waitFor('the HPA to scale to 4', sync, (h) => h.status?.desiredReplicas === 4);
    assert.equal(utilization(scaled), 180);
    await waitFor('the Deployment at 4 replicas', replicas, (n) => n === 4);
  });
});

interface HPAStatus {
  status?: {
    desiredReplicas?: number;
    currentMetrics?: { resource?: { current?: { averageUtilization?: number } } }[];
  };
}

const utilization = (h: HPAStatus): number | undefined =>
  h.status?.currentMetrics?.[0]?.resource?.current?.averageUtilization;
