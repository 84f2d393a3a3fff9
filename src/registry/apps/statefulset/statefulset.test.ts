import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { StatefulSet } from '../../../api/apps/v1/stateful-set.js';
import type { Store } from '../../generic/store.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import type { Storage } from '../../rest/capabilities.js';
import { podTemplate, updateWith } from '../workload/testing.js';
import { statefulSetStorageMap } from './storage.js';

const sts = (name: string): StatefulSet => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name },
  spec: { serviceName: name, selector: { matchLabels: { app: name } }, template: podTemplate({ app: name }) },
});

describe('statefulsets', () => {
  let env: MemoryRESTOptions;
  let map: Record<string, Storage>;
  let store: Store<StatefulSet>;
  const ctx = testContext('default');
  before(async () => {
    env = await memoryRESTOptions();
    map = await statefulSetStorageMap({ restOptionsGetter: env.getter });
    store = map['statefulsets'] as Store<StatefulSet>;
  });
  after(() => env.close());

  it('fills OrderedReady, RollingUpdate from partition 0, Retain, 1 replica and history 10', async () => {
    const out = await store.create(ctx, sts('db'), { options: {} });
    const spec = out.spec ?? {};
    assert.equal(spec.podManagementPolicy, 'OrderedReady');
    assert.deepEqual(spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
    assert.deepEqual(spec.persistentVolumeClaimRetentionPolicy, {
      whenDeleted: 'Retain',
      whenScaled: 'Retain',
    });
    assert.equal(spec.replicas, 1);
    assert.equal(spec.revisionHistoryLimit, 10);
    assert.deepEqual(out.status, { replicas: 0, availableReplicas: 0 });
    assert.deepEqual(Object.keys(map).sort(), ['statefulsets', 'statefulsets/scale', 'statefulsets/status']);
    assert.deepEqual(store.shortNames(), ['sts']);
  });

  it('lets replicas and the template change, nothing else in the spec', async () => {
    const scaled = await store.update(
      ctx,
      'db',
      updateWith<StatefulSet>((s) => {
        (s.spec ??= {}).replicas = 3;
      }),
    );
    assert.equal(scaled.object.metadata?.generation, 2);
    await rejectsWithStatus(
      store.update(
        ctx,
        'db',
        updateWith<StatefulSet>((s) => {
          (s.spec ??= {}).serviceName = 'other';
        }),
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          "StatefulSet.apps \"db\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      },
    );
  });

  it('refuses an unknown pod management policy', async () => {
    const bad = sts('bad');
    if (bad.spec !== undefined) bad.spec.podManagementPolicy = 'Sometimes';
    await rejectsWithStatus(store.create(ctx, bad, { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        'StatefulSet.apps "bad" is invalid: spec.podManagementPolicy: Invalid value: "Sometimes": must be \'OrderedReady\' or \'Parallel\'',
    });
  });

  it('prints NAME READY AGE', async () => {
    const table = store.convertToTable(ctx, await store.get(ctx, 'db', {}), {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Ready', 'Age', 'Containers', 'Images'],
    );
    assert.deepEqual(table.rows[0]?.cells.slice(0, 2), ['db', '0/3']);
  });
});
