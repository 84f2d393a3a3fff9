import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Pod } from '../../../api/core/v1/pod.js';
import { FeatureGates } from '../../../machinery/featuregate/feature-gates.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import type { Deployment } from '../../../api/apps/v1/deployment.js';
import { newDeploymentREST } from '../../apps/deployment/storage.js';
import { newPodREST, type PodStorage } from './storage.js';

const put = (obj: Pod): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});

/** A pod with an image volume mounted, a projected trust bundle, and a resize policy. */
const gated = (name: string): Pod => ({
  metadata: { name },
  spec: {
    containers: [
      {
        name: 'app',
        image: 'nginx',
        volumeMounts: [
          { name: 'models', mountPath: '/models' },
          { name: 'certs', mountPath: '/certs' },
        ],
        resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }],
      },
    ],
    volumes: [
      { name: 'models', image: { reference: 'example.com/models:v1' } },
      {
        name: 'certs',
        projected: {
          sources: [{ clusterTrustBundle: { name: 'ca', path: 'ca.pem' } }, { configMap: { name: 'extra' } }],
        },
      },
    ],
  },
});

describe("pods' fields behind feature gates (DropDisabledPodFields)", () => {
  let env: MemoryRESTOptions;
  const ctx = testContext('default');
  const storage = (gates: FeatureGates): Promise<PodStorage> =>
    newPodREST({ restOptionsGetter: env.getter, featureGates: gates });

  before(async () => {
    env = await memoryRESTOptions();
  });
  after(() => env.close());

  it("drops image volumes (and their mounts) and trust bundle projections under 1.33's defaults", async () => {
    const s = await storage(FeatureGates.defaults());
    const { spec } = await s.pods.create(ctx, gated('defaults'), { options: {} });
    assert.ok(spec !== undefined);
    const [app] = spec.containers;
    assert.deepEqual(
      (spec.volumes ?? []).map((v) => v.name),
      ['certs'],
    );
    assert.deepEqual(spec.volumes?.[0]?.projected?.sources, [{}, { configMap: { name: 'extra' } }]);
    assert.deepEqual(app?.volumeMounts, [{ name: 'certs', mountPath: '/certs' }]);
    assert.deepEqual(app.resizePolicy, [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }]);
  });

  it('keeps them with their gates on, and the resize policy only with InPlacePodVerticalScaling', async () => {
    const s = await storage(
      FeatureGates.parse(
        'ImageVolume=true,ClusterTrustBundleProjection=true,InPlacePodVerticalScaling=false',
      ),
    );
    const { spec } = await s.pods.create(ctx, gated('gated-on'), { options: {} });
    assert.ok(spec !== undefined);
    assert.deepEqual(
      (spec.volumes ?? []).map((v) => v.name),
      ['models', 'certs'],
    );
    const bundle = spec.volumes?.[1]?.projected?.sources?.[0]?.clusterTrustBundle;
    assert.equal(bundle?.name, 'ca');
    assert.equal(spec.containers[0]?.resizePolicy, undefined);
  });

  it("drops a status's observed generations unless the pod already had one", async () => {
    const s = await storage(FeatureGates.defaults());
    await s.pods.create(
      ctx,
      { metadata: { name: 'gen' }, spec: { containers: [{ name: 'a', image: 'x' }] } },
      {
        options: {},
      },
    );
    const pod = await s.pods.get(ctx, 'gen', {});
    // Unconditional writes: each server below writes over the last.
    delete pod.metadata?.resourceVersion;
    pod.status = {
      ...pod.status,
      observedGeneration: 1,
      conditions: [{ type: 'Ready', status: 'True', observedGeneration: 1 }],
    };
    const out = (await s.status.update(ctx, 'gen', put(pod))).object;
    assert.equal(out.status?.observedGeneration, undefined);
    assert.deepEqual(out.status?.conditions, [{ type: 'Ready', status: 'True' }]);
    const on = await storage(FeatureGates.parse('PodObservedGenerationTracking=true'));
    const tracked = (await on.status.update(ctx, 'gen', put(pod))).object;
    assert.equal(tracked.status?.observedGeneration, 1);
    // Once the pod has one, a server with the gate off keeps what is written.
    delete tracked.metadata?.resourceVersion;
    const again = (await s.status.update(ctx, 'gen', put(tracked))).object;
    assert.equal(again.status?.observedGeneration, 1);
  });
  it("drops them from a workload's pod template too, unless its gate is on", async () => {
    const deployment = (name: string): Deployment => ({
      metadata: { name },
      spec: {
        selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name } }, spec: gated(name).spec ?? { containers: [] } },
      },
    });
    const volumesOf = (d: Deployment): string[] => (d.spec?.template?.spec?.volumes ?? []).map((v) => v.name);
    const defaults = await newDeploymentREST({ restOptionsGetter: env.getter });
    const dropped = await defaults.deployments.create(ctx, deployment('dep-defaults'), { options: {} });
    assert.deepEqual(volumesOf(dropped), ['certs']);
    const on = await newDeploymentREST({
      restOptionsGetter: env.getter,
      featureGates: FeatureGates.parse('ImageVolume=true'),
    });
    const kept = await on.deployments.create(ctx, deployment('dep-on'), { options: {} });
    assert.deepEqual(volumesOf(kept), ['models', 'certs']);
  });
});
