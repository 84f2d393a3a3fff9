import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HorizontalPodAutoscalerV1 } from '../../api/autoscaling/v1/horizontal-pod-autoscaler.js';
import type { HorizontalPodAutoscaler } from '../../api/autoscaling/v2/types.js';
import type { GroupVersionResource } from '../../machinery/schema/group-resource.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../registry/generic/testing/memory-rest-options.js';
import { testContext } from '../../registry/generic/testing/widgets.js';
import { alwaysAllowAuthorizer } from '../../registry/rest/authorizer.js';
import type { Creater, Getter } from '../../registry/rest/capabilities.js';
import { autoscalingStorageProvider } from './autoscaling.js';
import type { StorageProviderInit } from './provider.js';

describe('autoscaling storage provider', () => {
  let env: MemoryRESTOptions;
  const ctx = testContext('default');
  const init = (enabled: (r: GroupVersionResource) => boolean): StorageProviderInit => ({
    restOptionsGetter: env.getter,
    resourceConfig: { resourceEnabled: enabled },
    authorizer: alwaysAllowAuthorizer,
  });
  before(async () => {
    env = await memoryRESTOptions();
  });
  after(() => env.close());

  it('serves v2 (preferred) and v1 from one store', async () => {
    const info = await autoscalingStorageProvider.newRESTStorage(init(() => true));
    assert.ok(info !== undefined);
    assert.deepEqual(info.prioritizedVersions, ['v2', 'v1']);
    const v2 = info.versionedResourcesStorageMap['v2'] ?? {};
    const v1 = info.versionedResourcesStorageMap['v1'] ?? {};
    assert.deepEqual(Object.keys(v2), ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']);
    assert.deepEqual(Object.keys(v1), ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']);
    const hpa: HorizontalPodAutoscaler = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'shared' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3 },
    };
    await (v2['horizontalpodautoscalers'] as unknown as Creater).create(ctx, hpa, { options: {} });
    const seen = (await (v1['horizontalpodautoscalers'] as unknown as Getter).get(
      ctx,
      'shared',
      {},
    )) as HorizontalPodAutoscalerV1;
    assert.deepEqual([seen.apiVersion, seen.spec?.targetCPUUtilizationPercentage], ['autoscaling/v1', 80]);
    await v2['horizontalpodautoscalers']?.destroy();
    await v1['horizontalpodautoscalers']?.destroy();
  });

  it('still serves autoscaling/v1 when v2 is turned off', async () => {
    const info = await autoscalingStorageProvider.newRESTStorage(init((r) => r.version === 'v1'));
    assert.ok(info !== undefined);
    assert.deepEqual(info.prioritizedVersions, ['v1']);
    const v1 = info.versionedResourcesStorageMap['v1'] ?? {};
    const seen = (await (v1['horizontalpodautoscalers'] as unknown as Getter).get(
      ctx,
      'shared',
      {},
    )) as HorizontalPodAutoscalerV1;
    assert.equal(seen.spec?.maxReplicas, 3);
    await v1['horizontalpodautoscalers']?.destroy();
  });
});
