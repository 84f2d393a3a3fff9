import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ReplicaSet } from '../../../api/apps/v1/replica-set.js';
import type { Scale } from '../../../api/autoscaling/v1/scale.js';
import type { Store } from '../../generic/store.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import type { Getter, Storage, Updater } from '../../rest/capabilities.js';
import { podTemplate, updateWith } from '../workload/testing.js';
import { replicaSetStorageMap } from './storage.js';

const rs = (name: string, replicas?: number): ReplicaSet => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name },
  spec: {
    ...(replicas === undefined ? {} : { replicas }),
    selector: { matchExpressions: [{ key: 'app', operator: 'In', values: [name] }] },
    template: podTemplate({ app: name }),
  },
});

describe('replicasets', () => {
  let env: MemoryRESTOptions;
  let map: Record<string, Storage>;
  let store: Store<ReplicaSet>;
  const ctx = testContext('default');
  before(async () => {
    env = await memoryRESTOptions();
    map = await replicaSetStorageMap({ restOptionsGetter: env.getter });
    store = map['replicasets'] as Store<ReplicaSet>;
  });
  after(() => env.close());

  it('defaults one replica, starts with status.replicas 0, and serves status and scale', async () => {
    const out = await store.create(ctx, { ...rs('a'), status: { replicas: 4 } }, { options: {} });
    assert.equal(out.spec?.replicas, 1);
    assert.deepEqual(out.status, { replicas: 0 });
    assert.deepEqual(Object.keys(map).sort(), ['replicasets', 'replicasets/scale', 'replicasets/status']);
    assert.deepEqual(store.shortNames(), ['rs']);
    const scale = map['replicasets/scale'] as unknown as Getter;
    const got = (await scale.get(ctx, 'a', {})) as Scale;
    assert.deepEqual(got.status, { replicas: 0, selector: 'app in (a)' });
  });

  it('selects by status.replicas and refuses other field labels', async () => {
    await store.create(ctx, rs('b', 2), { options: {} });
    const status = map['replicasets/status'] as unknown as Updater;
    await status.update(
      ctx,
      'b',
      updateWith<ReplicaSet>((r) => {
        r.status = { replicas: 2, readyReplicas: 1 };
      }),
    );
    const list = await store.list(ctx, { fieldSelector: 'status.replicas=2' });
    assert.deepEqual(
      list.items.map((i) => i.metadata?.name),
      ['b'],
    );
    await rejectsWithStatus(store.list(ctx, { fieldSelector: 'spec.replicas=2' }), {
      code: 400,
      reason: 'BadRequest',
    });
  });

  it('says deployment in the empty selector message, as kube does', async () => {
    const empty = rs('c');
    if (empty.spec !== undefined) empty.spec.selector = {};
    await rejectsWithStatus(store.create(ctx, empty, { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        'ReplicaSet.apps "c" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for deployment',
    });
  });

  it('prints NAME DESIRED CURRENT READY AGE and the wide columns', async () => {
    const table = store.convertToTable(ctx, await store.get(ctx, 'b', {}), {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers', 'Images', 'Selector'],
    );
    const cells = table.rows[0]?.cells ?? [];
    assert.deepEqual(
      [...cells.slice(0, 4), ...cells.slice(5)],
      ['b', 2, 2, 1, 'main', 'nginx', 'app in (b)'],
    );
  });
});
