import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { memoryRESTOptions } from '../../registry/generic/testing/memory-rest-options.js';
import { isCreater, isGetter } from '../../registry/rest/capabilities.js';
import { internalContext } from '../../registry/rest/context.js';
import {
  defaultAPIResourceConfigSource,
  mergeAPIResourceConfigs,
  parseRuntimeConfig,
} from '../../server/resource-config.js';
import { FeatureGates } from '../../machinery/featuregate/feature-gates.js';
import { newLegacyRESTStorage } from './core.js';

describe('newLegacyRESTStorage', () => {
  it('serves configmaps, secrets and namespaces with their subresources under v1', async () => {
    const env = await memoryRESTOptions();
    try {
      const info = await newLegacyRESTStorage({
        restOptionsGetter: env.getter,
        resourceConfig: defaultAPIResourceConfigSource(),
      });
      assert.equal(info.group, '');
      assert.deepEqual(info.prioritizedVersions, ['v1']);
      const v1 = info.versionedResourcesStorageMap.v1 ?? {};
      // Other resources join the map as they land; these must be among them.
      const keys = Object.keys(v1);
      for (const r of [
        'configmaps',
        'endpoints',
        'events',
        'namespaces',
        'namespaces/finalize',
        'namespaces/status',
        'secrets',
        'serviceaccounts',
      ]) {
        assert.ok(keys.includes(r), `${r} is served`);
      }
      const cms = v1.configmaps;
      assert.ok(cms !== undefined && isCreater(cms) && isGetter(cms));
      await cms.create(
        internalContext({ namespace: 'default' }),
        { metadata: { name: 'x' } },
        { options: {} },
      );
      const got = await cms.get(internalContext({ namespace: 'default' }), 'x', {});
      assert.equal(got.kind, 'ConfigMap');
      await Promise.all(Object.values(v1).map(async (s) => s.destroy()));
    } finally {
      await env.close();
    }
  });

  it('skips resources the runtime config turns off', async () => {
    const env = await memoryRESTOptions();
    try {
      const off = mergeAPIResourceConfigs(
        defaultAPIResourceConfigSource(),
        parseRuntimeConfig('v1/secrets=false,v1/namespaces=false'),
      );
      const info = await newLegacyRESTStorage({ restOptionsGetter: env.getter, resourceConfig: off });
      const served = Object.keys(info.versionedResourcesStorageMap.v1 ?? {});
      assert.ok(served.includes('configmaps'));
      assert.ok(!served.some((r) => r === 'secrets' || r.startsWith('namespaces')));
      const none = mergeAPIResourceConfigs(
        defaultAPIResourceConfigSource(),
        parseRuntimeConfig('api/v1=false'),
      );
      const empty = await newLegacyRESTStorage({ restOptionsGetter: env.getter, resourceConfig: none });
      assert.deepEqual(empty.versionedResourcesStorageMap, {});
    } finally {
      await env.close();
    }
  });

  it('fails with the storage factory error when a resource has no destination', async () => {
    await assert.rejects(
      newLegacyRESTStorage({
        restOptionsGetter: {
          getRESTOptions: () => {
            throw new Error('unable to find storage destination for namespaces, due to nope');
          },
        },
        resourceConfig: defaultAPIResourceConfigSource(),
      }),
      { message: 'unable to find storage destination for namespaces, due to nope' },
    );
  });
  it('serves pods/resize only while InPlacePodVerticalScaling is on', async () => {
    const env = await memoryRESTOptions();
    try {
      const served = async (gates: FeatureGates): Promise<boolean> => {
        const info = await newLegacyRESTStorage({
          restOptionsGetter: env.getter,
          resourceConfig: defaultAPIResourceConfigSource(),
          featureGates: gates,
        });
        const v1 = info.versionedResourcesStorageMap.v1 ?? {};
        const on = 'pods/resize' in v1;
        for (const s of Object.values(v1)) await s.destroy();
        return on;
      };
      assert.equal(await served(FeatureGates.defaults()), true);
      assert.equal(await served(FeatureGates.parse('InPlacePodVerticalScaling=false')), false);
    } finally {
      await env.close();
    }
  });
});
