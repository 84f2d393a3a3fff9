// The HPA controller over real in-memory storages on a virtual clock: min and max enforced through
// deployments/scale, kube's conditions and events when the resource metrics API is missing, a
// metrics-driven rescale from PodMetrics, a rescale on a Pods and an External metric, and a target
// it cannot find. The metrics come through the real clients from an in-process fake adapter.
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
import { FakeMetricsAdapter } from './testing/fake-metrics-adapter.js';
import { waitFor } from '../../../machinery/testing/wait-for.js';
import { RESTMetricsClient } from './metrics-client.js';

const ns = 'default';
const missingAPI = 'the server could not find the requested resource (get pods.metrics.k8s.io)';

let h: WorkloadHarness;
let controller: HorizontalController;
const metrics = new FakeMetricsAdapter(() => rfc3339(h.clock.now()));

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
    metrics: new RESTMetricsClient(metrics),
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

  it('scales on a Pods and an External metric from custom and external metrics adapters', async () => {
    await h.client.create('apps/v1/deployments', ns, deployment('queue', 3));
    for (const name of ['queue-a', 'queue-b', 'queue-c']) await runningPod('queue', name);
    const queueHPA = hpa('queue', { min: 1, max: 10 });
    const selector = { matchLabels: { queue: 'orders' } };
    queueHPA.spec = {
      ...queueHPA.spec,
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'queue' },
      maxReplicas: 10,
      metrics: [
        {
          type: 'Pods',
          pods: {
            metric: { name: 'requests_per_second' },
            target: { type: 'AverageValue', averageValue: '10' },
          },
        },
        {
          type: 'External',
          external: { metric: { name: 'queue_length', selector }, target: { type: 'Value', value: '30' } },
        },
      ],
    };
    await h.client.create('autoscaling/v2/horizontalpodautoscalers', ns, queueHPA);
    // Neither API served yet: kube's errors, the first metric's in the condition.
    await h.advance(15_000);
    const selectorText =
      '&LabelSelector{MatchLabels:map[string]string{queue: orders,},MatchExpressions:[]LabelSelectorRequirement{},}';
    const podsError =
      'unable to get metric requests_per_second: unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered';
    const failing = await waitFor(
      'ScalingActive',
      () => getHPA('queue'),
      (x) => condition(x, 'ScalingActive') !== undefined,
    );
    assert.deepEqual(condition(failing, 'ScalingActive'), [
      'False',
      'FailedGetPodsMetric',
      `the HPA was unable to compute the replica count: ${podsError}`,
    ]);
    assert.deepEqual(
      await waitFor(
        'events',
        () => events('queue'),
        (e) => e.length === 3,
      ),
      [
        ['Warning', 'FailedGetPodsMetric', podsError, 'horizontal-pod-autoscaler'],
        [
          'Warning',
          'FailedGetExternalMetric',
          `unable to get external metric default/queue_length/${selectorText}: unable to fetch metrics from external metrics API: the server could not find the requested resource (get queue_length.external.metrics.k8s.io)`,
          'horizontal-pod-autoscaler',
        ],
        [
          'Warning',
          'FailedComputeMetricsReplicas',
          `invalid metrics (2 invalid out of 2), first error is: failed to get pods metric value: ${podsError}`,
          'horizontal-pod-autoscaler',
        ],
      ],
    );
    // The adapters come up: 15 per pod against 10 proposes 5; 60 against 30 on 3 ready pods, 6.
    metrics.customVersions = ['v1beta2', 'v1beta1'];
    metrics.podsMetrics.set('requests_per_second', { 'queue-a': '15', 'queue-b': '15', 'queue-c': '15' });
    metrics.external.set('queue_length', ['40', '20']);
    await h.advance(15_000);
    await waitFor(
      'queue at 6',
      () => getDeployment('queue'),
      (x) => x.spec?.replicas === 6,
    );
    const got = await waitFor(
      'status',
      () => getHPA('queue'),
      (x) => x.status?.desiredReplicas === 6,
    );
    assert.deepEqual(got.status?.currentMetrics, [
      { type: 'Pods', pods: { metric: { name: 'requests_per_second' }, current: { averageValue: '15' } } },
      {
        type: 'External',
        external: { metric: { name: 'queue_length', selector }, current: { value: '60' } },
      },
    ]);
    const metric = `external metric queue_length(${selectorText})`;
    assert.deepEqual(condition(got, 'ScalingActive'), [
      'True',
      'ValidMetricFound',
      `the HPA was able to successfully calculate a replica count from ${metric}`,
    ]);
    const e = await waitFor(
      'events',
      () => events('queue'),
      (x) => x.length === 4,
    );
    assert.deepEqual(e[3], [
      'Normal',
      'SuccessfulRescale',
      `New size: 6; reason: ${metric} above target`,
      'horizontal-pod-autoscaler',
    ]);
    assert.ok(
      metrics.asked.includes(
        '/apis/custom.metrics.k8s.io/v1beta2/namespaces/default/pods/%2A/requests_per_second?labelSelector=app%3Dqueue',
      ),
    );
    assert.ok(
      metrics.asked.includes(
        '/apis/external.metrics.k8s.io/v1beta1/namespaces/default/queue_length?labelSelector=queue%3Dorders',
      ),
    );
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
