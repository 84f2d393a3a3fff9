import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DaemonSet } from '../../../api/apps/v1/daemon-set.js';
import type { Store } from '../../generic/store.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import type { Storage } from '../../rest/capabilities.js';
import { podTemplate, updateWith } from '../workload/testing.js';
import { daemonSetStorageMap } from './storage.js';
import { templateGenerationAnnotation } from './strategy.js';

const ds = (name: string): DaemonSet => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name },
  spec: { selector: { matchLabels: { app: name } }, template: podTemplate({ app: name }) },
});

describe('daemonsets', () => {
  let env: MemoryRESTOptions;
  let map: Record<string, Storage>;
  let store: Store<DaemonSet>;
  const ctx = testContext('kube-system');
  before(async () => {
    env = await memoryRESTOptions();
    map = await daemonSetStorageMap({ restOptionsGetter: env.getter });
    store = map['daemonsets'] as Store<DaemonSet>;
  });
  after(() => env.close());

  it('defaults RollingUpdate with maxUnavailable 1 and maxSurge 0, at template generation 1', async () => {
    const out = await store.create(ctx, ds('agent'), { options: {} });
    assert.deepEqual(out.spec?.updateStrategy, {
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: 1, maxSurge: 0 },
    });
    assert.equal(out.spec.revisionHistoryLimit, 10);
    assert.equal(out.metadata?.annotations?.[templateGenerationAnnotation], '1');
    assert.deepEqual(out.status, {
      currentNumberScheduled: 0,
      numberMisscheduled: 0,
      desiredNumberScheduled: 0,
      numberReady: 0,
    });
    assert.deepEqual(Object.keys(map).sort(), ['daemonsets', 'daemonsets/status']);
    assert.deepEqual(store.shortNames(), ['ds']);
  });

  it('bumps the template generation only when the template changes', async () => {
    const other = await store.update(
      ctx,
      'agent',
      updateWith<DaemonSet>((d) => {
        (d.spec ??= {}).minReadySeconds = 5;
      }),
    );
    assert.equal(other.object.metadata?.annotations?.[templateGenerationAnnotation], '1');
    const image = await store.update(
      ctx,
      'agent',
      updateWith<DaemonSet>((d) => {
        (d.spec ??= {}).template = podTemplate({ app: 'agent' }, 'nginx:2');
      }),
    );
    assert.equal(image.object.metadata?.annotations?.[templateGenerationAnnotation], '2');
    assert.equal(image.object.metadata.generation, 3);
  });

  it('refuses maxSurge beside a non-zero maxUnavailable', async () => {
    const both = ds('both');
    if (both.spec !== undefined)
      both.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } };
    await rejectsWithStatus(store.create(ctx, both, { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        'DaemonSet.apps "both" is invalid: spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero',
    });
  });

  it('prints NAME DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE SELECTOR AGE', async () => {
    const withNodes = ds('nodes');
    const spec = withNodes.spec?.template?.spec;
    if (spec !== undefined) spec.nodeSelector = { 'kubernetes.io/os': 'linux', a: 'b' };
    await store.create(ctx, withNodes, { options: {} });
    const table = store.convertToTable(ctx, await store.list(ctx, {}), {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      [
        'Name',
        'Desired',
        'Current',
        'Ready',
        'Up-to-date',
        'Available',
        'Node Selector',
        'Age',
        'Containers',
        'Images',
        'Selector',
      ],
    );
    assert.deepEqual(
      table.rows.map((r) => r.cells[6]),
      ['<none>', 'a=b,kubernetes.io/os=linux'],
    );
  });
});
