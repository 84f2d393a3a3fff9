// The HPA controller over real in-memory storages on a virtual clock: min and max enforced through
// deployments/scale, kube's conditions and events when the resource metrics API is missing, a
// metrics-driven rescale from a fake source of PodMetrics, and a target it cannot find.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Deployment } from '../../../api/apps/v1/deployment.js';
import type { HorizontalPodAutoscaler } from '../../../api/autoscaling/v2/types.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { rfc3339 } from '../simulation/clock.js';
import {
  startWorkloadHarness,
  testDeployment,
  type WorkloadHarness,
} from '../simulation/testing/workload-harness.js';
import { HorizontalController } from './hpa-controller.js';
import type { PodMetrics, PodMetricsResult, ResourceMetricsSource } from './resource-metrics.js';
import { waitFor } from '../../../machinery/testing/wait-for.js';

const ns = 'default';
const missingAPI = 'the server could not find the requested resource (get pods.metrics.k8s.io)';

/** PodMetrics by pod name; a pod absent from the map makes the API answer 404. */
class FakeMetrics implements ResourceMetricsSource {
  readonly served = new Map<string, PodMetrics>();
  podMetrics(): Promise<PodMetricsResult> {
    if (this.served.size === 0) return Promise.resolve({ ok: false, error: missingAPI });
    return Promise.resolve({ ok: true, items: [...this.served.values()] });
  }
  close(): void {
    // Nothing held.
  }
}

let h: WorkloadHarness;
let controller: HorizontalController;
const metrics = new FakeMetrics();

const deployment = testDeployment;

const hpa = (
  name: string,
  o: { min: number; max: number; kind?: string; apiVersion?: string },
): HorizontalPodAutoscaler => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name, namespace: ns },
  spec: {
    scaleTargetRef: { apiVersion: o.apiVersion ?? 'apps/v1', kind: o.kind ?? 'Deployment', name },
    minReplicas: o.min,
    maxReplicas: o.max,
    metrics: [
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } },
      },
    ],
  },
});

const getHPA = (name: string) =>
  h.client.get<HorizontalPodAutoscaler>('autoscaling/v2/horizontalpodautoscalers', { namespace: ns, name });
const getDeployment = (name: string) =>
  h.client.get<Deployment>('apps/v1/deployments', { namespace: ns, name });
const condition = (o: HorizontalPodAutoscaler, type: string) => {
  const c = o.status?.conditions?.find((x) => x.type === type);
  return c && [c.status, c.reason, c.message];
};
const events = async (name: string) =>
  (await h.eventsAbout(ns, name)).map((e) => [e.type, e.reason, e.message, e.source?.component]);

/** A Running, Ready pod of the app, started long ago, requesting 100m CPU. */
async function runningPod(app: string, name: string): Promise<void> {
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, labels: { app } },
    spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m' } } }] },
  };
  const created = await h.client.create('/v1/pods', ns, pod);
  const long = rfc3339(h.clock.now() - 3_600_000);
  await h.client.update('/v1/pods/status', {
    ...created,
    status: {
      phase: 'Running',
      startTime: long,
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: long }],
    },
  });
}

before(async () => {
  h = await startWorkloadHarness();
  const hpas = await h.informer<HorizontalPodAutoscaler>('autoscaling/v2/horizontalpodautoscalers');
  const pods = await h.informer<Pod>('/v1/pods');
  controller = new HorizontalController({
    client: h.client,
    hpas,
    pods,
    groups: () => h.groups,
    metrics,
    clock: h.clock,
    logger: h.logger,
    recorder: h.recorder('horizontal-pod-autoscaler'),
  });
  controller.run();
});

after(async () => {
  await controller.close();
  await h.close();
});

describe('horizontal pod autoscaler controller', () => {
  it('scales a target below minReplicas up to it one sync period after the HPA appears', async () => {
    await h.client.create('apps/v1/deployments', ns, deployment('low', 1));
    await h.client.create('autoscaling/v2/horizontalpodautoscalers', ns, hpa('low', { min: 3, max: 5 }));
    await h.advance(15_000);
    const d = await waitFor(
      'low at 3',
      () => getDeployment('low'),
      (x) => x.spec?.replicas === 3,
    );
    assert.equal(d.spec?.replicas, 3);
    const status = await waitFor(
      'status',
      () => getHPA('low'),
      (x) => x.status?.desiredReplicas === 3,
    );
    assert.equal(status.status?.currentReplicas, 1);
    assert.equal(status.status.lastScaleTime, rfc3339(h.clock.now()));
    assert.deepEqual(condition(status, 'AbleToScale'), [
      'True',
      'SucceededRescale',
      'the HPA controller was able to update the target scale to 3',
    ]);
    assert.deepEqual(await events('low'), [
      [
        'Normal',
        'SuccessfulRescale',
        'New size: 3; reason: Current number of replicas below Spec.MinReplicas',
        'horizontal-pod-autoscaler',
      ],
    ]);
  });

  it('without the resource metrics API: ScalingActive False FailedGetResourceMetric and kube’s events', async () => {
    await h.advance(15_000);
    const got = await waitFor(
      'ScalingActive',
      () => getHPA('low'),
      (x) => condition(x, 'ScalingActive') !== undefined,
    );
    const inner = `failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: ${missingAPI}`;
    assert.deepEqual(condition(got, 'AbleToScale'), [
      'True',
      'SucceededGetScale',
      "the HPA controller was able to get the target's current scale",
    ]);
    assert.deepEqual(condition(got, 'ScalingActive'), [
      'False',
      'FailedGetResourceMetric',
      `the HPA was unable to compute the replica count: ${inner}`,
    ]);
    assert.equal(got.status?.currentReplicas, 3);
    assert.equal(got.status.desiredReplicas, 3);
    assert.deepEqual(got.status.currentMetrics, [{ type: '' }]);
    const seen = await waitFor(
      'events',
      () => events('low'),
      (e) => e.length === 3,
    );
    assert.deepEqual(seen.slice(1), [
      ['Warning', 'FailedGetResourceMetric', inner, 'horizontal-pod-autoscaler'],
      [
        'Warning',
        'FailedComputeMetricsReplicas',
        `invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: ${inner}`,
        'horizontal-pod-autoscaler',
      ],
    ]);
    assert.equal((await getDeployment('low')).spec?.replicas, 3);
  });

  it('scales a target above maxReplicas down to it, and leaves a target at zero alone', async () => {
    await h.client.create('apps/v1/deployments', ns, deployment('high', 8));
    await h.client.create('autoscaling/v2/horizontalpodautoscalers', ns, hpa('high', { min: 1, max: 5 }));
    await h.client.create('apps/v1/deployments', ns, deployment('zero', 0));
    await h.client.create('autoscaling/v2/horizontalpodautoscalers', ns, hpa('zero', { min: 1, max: 5 }));
    await h.advance(15_000);
    await waitFor(
      'high at 5',
      () => getDeployment('high'),
      (x) => x.spec?.replicas === 5,
    );
    const e = await waitFor(
      'events',
      () => events('high'),
      (x) => x.length === 1,
    );
    assert.equal(e[0]?.[2], 'New size: 5; reason: Current number of replicas above Spec.MaxReplicas');
    const zero = await waitFor(
      'zero',
      () => getHPA('zero'),
      (x) => condition(x, 'ScalingActive') !== undefined,
    );
    assert.deepEqual(condition(zero, 'ScalingActive'), [
      'False',
      'ScalingDisabled',
      'scaling is disabled since the replica count of the target is zero',
    ]);
    assert.equal((await getDeployment('zero')).spec?.replicas, 0);
  });

  it('scales on CPU utilization read from PodMetrics', async () => {
    await h.client.create('apps/v1/deployments', ns, deployment('busy', 2));
    for (const name of ['busy-a', 'busy-b']) {
      await runningPod('busy', name);
      metrics.served.set(name, {
        metadata: { name, namespace: ns },
        timestamp: rfc3339(h.clock.now()),
        window: '30s',
        containers: [{ name: 'c', usage: { cpu: '100m' } }],
      });
    }
    await h.client.create('autoscaling/v2/horizontalpodautoscalers', ns, hpa('busy', { min: 1, max: 10 }));
    await h.advance(15_000);
    await waitFor(
      'busy at 4',
      () => getDeployment('busy'),
      (x) => x.spec?.replicas === 4,
    );
    const got = await waitFor(
      'status',
      () => getHPA('busy'),
      (x) => x.status?.desiredReplicas === 4,
    );
    assert.deepEqual(got.status?.currentMetrics, [
      {
        type: 'Resource',
        resource: { name: 'cpu', current: { averageValue: '100m', averageUtilization: 100 } },
      },
    ]);
    assert.deepEqual(condition(got, 'ScalingActive'), [
      'True',
      'ValidMetricFound',
      'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
    ]);
    assert.deepEqual(condition(got, 'ScalingLimited'), [
      'False',
      'DesiredWithinRange',
      'the desired count is within the acceptable range',
    ]);
    const e = await waitFor(
      'events',
      () => events('busy'),
      (x) => x.length === 1,
    );
    assert.equal(
      e[0]?.[2],
      'New size: 4; reason: cpu resource utilization (percentage of request) above target',
    );
    metrics.served.clear();
  });

  it('reports a target it cannot find as FailedGetScale', async () => {
    await h.client.create('autoscaling/v2/horizontalpodautoscalers', ns, hpa('ghost', { min: 1, max: 3 }));
    await h.client.create(
      'autoscaling/v2/horizontalpodautoscalers',
      ns,
      hpa('odd', { min: 1, max: 3, kind: 'Widget', apiVersion: 'example.com/v1' }),
    );
    await h.advance(15_000);
    const ghost = await waitFor(
      'ghost',
      () => getHPA('ghost'),
      (x) => condition(x, 'AbleToScale') !== undefined,
    );
    assert.equal(condition(ghost, 'AbleToScale')?.[1], 'FailedGetScale');
    assert.match(
      condition(ghost, 'AbleToScale')?.[2] ?? '',
      /^the HPA controller was unable to get the target's current scale: .*"ghost" not found$/,
    );
    const odd = await waitFor(
      'odd',
      () => getHPA('odd'),
      (x) => condition(x, 'AbleToScale') !== undefined,
    );
    assert.deepEqual(condition(odd, 'AbleToScale'), [
      'False',
      'FailedGetScale',
      'the HPA controller was unable to get the target\'s current scale: no matches for kind "Widget" in group "example.com"',
    ]);
  });
});
