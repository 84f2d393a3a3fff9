import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HorizontalPodAutoscalerV1 } from '../../../api/autoscaling/v1/horizontal-pod-autoscaler.js';
import type { HorizontalPodAutoscaler } from '../../../api/autoscaling/v2/types.js';
import type { KubeObject } from '../../../api/meta.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { horizontalPodAutoscalerV1Conversion, metricSpecsAnnotation } from './conversion.js';
import { newHorizontalPodAutoscalerREST, type HorizontalPodAutoscalerStorage } from './storage.js';

const hpa = (
  name: string,
  spec: Partial<NonNullable<HorizontalPodAutoscaler['spec']>> = {},
): HorizontalPodAutoscaler => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    maxReplicas: 5,
    ...spec,
  },
});
const put = <T extends KubeObject>(obj: T): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});
const causes = (status: { details?: { causes?: { field?: string; message?: string }[] } }): string[] =>
  status.details?.causes?.map((c) => `${c.field ?? ''}: ${c.message ?? ''}`) ?? [];

describe('horizontalpodautoscalers', () => {
  let env: MemoryRESTOptions;
  let storage: HorizontalPodAutoscalerStorage;
  const ctx = testContext('default');
  before(async () => {
    env = await memoryRESTOptions();
    storage = await newHorizontalPodAutoscalerREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('stores autoscaling/v2 with the defaults, short name hpa in category all', async () => {
    const out = await storage.horizontalPodAutoscalers.create(
      ctx,
      { ...hpa('web'), status: { desiredReplicas: 9, currentReplicas: 9 } },
      { options: {} },
    );
    assert.equal(out.spec?.minReplicas, 1);
    assert.deepEqual(out.spec.metrics, [
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } },
      },
    ]);
    assert.deepEqual(out.status, { desiredReplicas: 0 });
    assert.notEqual((await env.backend.get('/registry/horizontalpodautoscalers/default/web')).kv, null);
    assert.deepEqual(storage.horizontalPodAutoscalers.shortNames(), ['hpa']);
    assert.deepEqual(storage.v1.categories(), ['all']);
  });

  it('fills in the scaling rules a given behavior leaves out', async () => {
    const out = await storage.horizontalPodAutoscalers.create(
      ctx,
      hpa('behaved', {
        behavior: { scaleDown: { policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] } },
      }),
      { options: {} },
    );
    assert.deepEqual(out.spec?.behavior, {
      scaleUp: {
        stabilizationWindowSeconds: 0,
        selectPolicy: 'Max',
        policies: [
          { type: 'Pods', value: 4, periodSeconds: 15 },
          { type: 'Percent', value: 100, periodSeconds: 15 },
        ],
      },
      scaleDown: { policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }], selectPolicy: 'Max' },
    });
  });

  it('serves the same objects at autoscaling/v1 with targetCPUUtilizationPercentage', async () => {
    const v1 = await storage.v1.get(ctx, 'web', {});
    assert.equal(v1.apiVersion, 'autoscaling/v1');
    assert.equal(v1.spec?.targetCPUUtilizationPercentage, 80);
    assert.equal(v1.metadata?.annotations, undefined);
    const created = await storage.v1.create(
      ctx,
      {
        apiVersion: 'autoscaling/v1',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: 'v1-made' },
        spec: {
          scaleTargetRef: { kind: 'Deployment', name: 'api' },
          maxReplicas: 3,
          targetCPUUtilizationPercentage: 50,
        },
      },
      { options: {} },
    );
    assert.equal(created.spec?.targetCPUUtilizationPercentage, 50);
    assert.equal(created.spec.minReplicas, 1);
    const v2 = await storage.horizontalPodAutoscalers.get(ctx, 'v1-made', {});
    assert.deepEqual(v2.spec?.metrics?.[0]?.resource, {
      name: 'cpu',
      target: { type: 'Utilization', averageUtilization: 50 },
    });
    const list = await storage.v1.list(ctx, {});
    assert.equal(list.kind, 'HorizontalPodAutoscalerList');
    assert.deepEqual(
      list.items.map((i) => i.apiVersion),
      ['autoscaling/v1', 'autoscaling/v1', 'autoscaling/v1'],
    );
  });

  it('keeps v2-only metrics, behavior, current metrics and conditions through a v1 read-modify-write', async () => {
    await storage.horizontalPodAutoscalers.create(
      ctx,
      hpa('rich', {
        metrics: [
          {
            type: 'Resource',
            resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } },
          },
          {
            type: 'Resource',
            resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } },
          },
          {
            type: 'Pods',
            pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } },
          },
        ],
        behavior: { scaleDown: { stabilizationWindowSeconds: 60 } },
      }),
      { options: {} },
    );
    const current = await storage.horizontalPodAutoscalers.get(ctx, 'rich', {});
    const status = {
      currentReplicas: 2,
      desiredReplicas: 3,
      currentMetrics: [
        {
          type: 'Resource',
          resource: { name: 'cpu', current: { averageUtilization: 70, averageValue: '140m' } },
        },
      ],
      conditions: [
        {
          type: 'AbleToScale',
          status: 'True',
          lastTransitionTime: '2026-11-26T00:00:00Z',
          reason: 'ReadyForNewScale',
        },
      ],
    };
    await storage.status.update(ctx, 'rich', put({ ...current, status }));

    const v1 = await storage.v1.get(ctx, 'rich', {});
    assert.equal(v1.spec?.targetCPUUtilizationPercentage, 60);
    assert.equal(v1.status?.currentCPUUtilizationPercentage, 70);
    const annotations = v1.metadata?.annotations ?? {};
    assert.deepEqual(JSON.parse(annotations[metricSpecsAnnotation] ?? '[]'), [
      { type: 'Resource', resource: { name: 'memory', targetAverageValue: '500Mi' } },
      { type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '10' } },
    ]);
    assert.ok('autoscaling.alpha.kubernetes.io/behavior' in annotations);
    assert.ok('autoscaling.alpha.kubernetes.io/current-metrics' in annotations);
    assert.ok('autoscaling.alpha.kubernetes.io/conditions' in annotations);

    const { object } = await storage.v1.update(
      ctx,
      'rich',
      put<HorizontalPodAutoscalerV1>({
        ...v1,
        spec: { ...(v1.spec ?? { scaleTargetRef: { kind: '', name: '' }, maxReplicas: 0 }), maxReplicas: 8 },
      }),
    );
    assert.equal(object.spec?.maxReplicas, 8);
    const after = await storage.horizontalPodAutoscalers.get(ctx, 'rich', {});
    assert.deepEqual(
      after.spec?.metrics,
      current.spec?.metrics
        ?.slice(0, 1)
        .concat(current.spec.metrics.slice(2), current.spec.metrics.slice(1, 2)),
    );
    assert.deepEqual(after.spec?.behavior, current.spec?.behavior);
    assert.deepEqual(after.status, status);
    assert.equal(after.metadata?.annotations, undefined);
  });

  it('converts v2 → v1 → v2 without loss for an object kube can round-trip', () => {
    const original = structuredClone(
      hpa('pure', {
        minReplicas: 2,
        metrics: [
          {
            type: 'External',
            external: {
              metric: { name: 'queue', selector: { matchLabels: { q: 'jobs' } } },
              target: { type: 'AverageValue', averageValue: '30' },
            },
          },
          {
            type: 'Resource',
            resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 75 } },
          },
        ],
        behavior: { scaleUp: { selectPolicy: 'Disabled' } },
      }),
    );
    const back = horizontalPodAutoscalerV1Conversion.toInner(
      horizontalPodAutoscalerV1Conversion.fromInner(original),
    );
    assert.deepEqual(back, original);
    const v1 = horizontalPodAutoscalerV1Conversion.fromInner(original);
    assert.deepEqual(
      horizontalPodAutoscalerV1Conversion.fromInner(horizontalPodAutoscalerV1Conversion.toInner(v1)),
      v1,
    );
  });

  it("refuses bad bounds, targets, metrics and behavior with kube's messages", async () => {
    const status = await rejectsWithStatus(
      storage.horizontalPodAutoscalers.create(
        ctx,
        hpa('bad', {
          scaleTargetRef: { kind: '', name: 'a/b' },
          minReplicas: 0,
          maxReplicas: 0,
          metrics: [
            {
              type: 'Resource',
              resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 0 } },
            },
            { type: 'Pods' },
          ],
          behavior: {
            scaleUp: {
              stabilizationWindowSeconds: 4000,
              policies: [{ type: 'Nodes', value: 0, periodSeconds: 2000 }],
            },
          },
        }),
        { options: {} },
      ),
      { code: 422, reason: 'Invalid' },
    );
    assert.deepEqual(causes(status), [
      'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
      'spec.maxReplicas: Invalid value: 0: must be greater than 0',
      'spec.scaleTargetRef.kind: Required value',
      'spec.scaleTargetRef.name: Invalid value: "a/b": may not contain \'/\'',
      'spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0',
      'spec.metrics[1].pods: Required value: must populate information for the given metric source',
      'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
      'spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: 4000: must be less than or equal to 3600',
      'spec.behavior.scaleUp.policies[0].type: Unsupported value: "Nodes": supported values: "Percent", "Pods"',
      'spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero',
      'spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 2000: must be less than or equal to 1800',
    ]);
    const minOverMax = await rejectsWithStatus(
      storage.v1.create(
        ctx,
        {
          apiVersion: 'autoscaling/v1',
          kind: 'HorizontalPodAutoscaler',
          metadata: { name: 'inverted' },
          spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 4, maxReplicas: 2 },
        },
        { options: {} },
      ),
      { code: 422, reason: 'Invalid' },
    );
    assert.equal(
      minOverMax.message,
      'HorizontalPodAutoscaler.autoscaling "inverted" is invalid: spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`',
    );
  });

  it('prints NAME REFERENCE TARGETS MINPODS MAXPODS REPLICAS AGE, the same at both versions', async () => {
    const web = await storage.horizontalPodAutoscalers.get(ctx, 'web', {});
    const table = storage.horizontalPodAutoscalers.convertToTable(ctx, web, {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age'],
    );
    assert.deepEqual(table.rows[0]?.cells.slice(0, 6), [
      'web',
      'Deployment/web',
      'cpu: <unknown>/80%',
      '1',
      5,
      0,
    ]);
    const rich = storage.v1.convertToTable(ctx, await storage.v1.get(ctx, 'rich', {}), {
      includeObject: 'Object',
    });
    // As kube's printer does, the i-th current metric is read against the i-th spec metric.
    assert.equal(rich.rows[0]?.cells[2], 'memory: 140m/500Mi, <unknown>/10 + 1 more...');
    assert.equal(rich.rows[0].object?.apiVersion, 'autoscaling/v1');
  });

  it('/status at v1 takes the replicas and keeps the spec', async () => {
    const v1 = await storage.v1Status.get(ctx, 'web', {});
    const { object } = await storage.v1Status.update(
      ctx,
      'web',
      put<HorizontalPodAutoscalerV1>({
        ...v1,
        spec: { scaleTargetRef: { kind: 'Deployment', name: 'other' }, maxReplicas: 50 },
        status: { currentReplicas: 3, desiredReplicas: 4, currentCPUUtilizationPercentage: 20 },
      }),
    );
    assert.equal(object.spec?.maxReplicas, 5);
    assert.deepEqual(object.status, {
      currentReplicas: 3,
      desiredReplicas: 4,
      currentCPUUtilizationPercentage: 20,
    });
    const v2 = await storage.horizontalPodAutoscalers.get(ctx, 'web', {});
    assert.deepEqual(v2.status?.currentMetrics, [
      { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 20 } } },
    ]);
    await rejectsWithStatus(
      storage.status.update(ctx, 'web', put({ ...v2, status: { desiredReplicas: -1 } })),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'HorizontalPodAutoscaler.autoscaling "web" is invalid: status.desiredReplicas: Invalid value: -1: must be greater than or equal to 0',
      },
    );
  });

  it('ignores round-trip annotations that do not decode, and validates the ones that do', async () => {
    const v1 = (name: string, annotations: Record<string, string>): HorizontalPodAutoscalerV1 => ({
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name, annotations: { keep: 'me', ...annotations } },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 2 },
    });
    const created = await storage.v1.create(
      ctx,
      v1('junk', {
        [metricSpecsAnnotation]: '[{"type":"Pods","pods":"qps"}]',
        'autoscaling.alpha.kubernetes.io/behavior': '[1]',
        'autoscaling.alpha.kubernetes.io/conditions': 'not json',
      }),
      { options: {} },
    );
    assert.deepEqual(created.metadata?.annotations, { keep: 'me' });
    const stored = await storage.horizontalPodAutoscalers.get(ctx, 'junk', {});
    assert.deepEqual(stored.spec?.metrics, [
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } },
      },
    ]);
    assert.equal(stored.spec.behavior, undefined);
    const status = await rejectsWithStatus(
      storage.v1.create(ctx, v1('partial', { [metricSpecsAnnotation]: '[{"type":"Pods","pods":{}}]' }), {
        options: {},
      }),
      { code: 422, reason: 'Invalid' },
    );
    assert.deepEqual(causes(status), [
      'spec.metrics[0].pods.metric.name: Required value: must specify a metric name',
      'spec.metrics[0].pods.target.averageValue: Invalid value: "0": must be positive',
    ]);
  });
});
