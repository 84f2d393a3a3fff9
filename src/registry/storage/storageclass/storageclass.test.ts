import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { StorageClass } from '../../../api/storage/v1/storage-class.js';
import type { Store } from '../../generic/store.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { newStorageClassREST } from './storage.js';

const sc = (name: string, more: Partial<StorageClass> = {}): StorageClass => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name },
  provisioner: 'kubernetes.io/no-provisioner',
  ...more,
});
const put = (obj: StorageClass): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});

describe('storageclasses', () => {
  let env: MemoryRESTOptions;
  let store: Store<StorageClass>;
  const ctx = testContext('');
  before(async () => {
    env = await memoryRESTOptions();
    store = await newStorageClassREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('defaults reclaimPolicy and volumeBindingMode, short name sc', async () => {
    const out = await store.create(
      ctx,
      sc('standard', {
        metadata: {
          name: 'standard',
          annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' },
        },
        parameters: { type: 'ssd' },
      }),
      { options: {} },
    );
    assert.equal(out.reclaimPolicy, 'Delete');
    assert.equal(out.volumeBindingMode, 'Immediate');
    assert.deepEqual(store.shortNames(), ['sc']);
    assert.notEqual((await env.backend.get('/registry/storageclasses/standard')).kv, null);
  });

  it('prints NAME PROVISIONER RECLAIMPOLICY VOLUMEBINDINGMODE ALLOWVOLUMEEXPANSION AGE, marking the default', async () => {
    await store.create(
      ctx,
      sc('slow', {
        reclaimPolicy: 'Retain',
        volumeBindingMode: 'WaitForFirstConsumer',
        allowVolumeExpansion: true,
      }),
      {
        options: {},
      },
    );
    const table = store.convertToTable(ctx, await store.list(ctx, {}), {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Provisioner', 'ReclaimPolicy', 'VolumeBindingMode', 'AllowVolumeExpansion', 'Age'],
    );
    assert.deepEqual(
      table.rows.map((r) => r.cells.slice(0, 5)),
      [
        ['slow', 'kubernetes.io/no-provisioner', 'Retain', 'WaitForFirstConsumer', true],
        ['standard (default)', 'kubernetes.io/no-provisioner', 'Delete', 'Immediate', false],
      ],
    );
  });

  it('requires a provisioner and refuses changes to provisioner, parameters and reclaimPolicy', async () => {
    await rejectsWithStatus(
      store.create(ctx, sc('none', { provisioner: '', reclaimPolicy: 'Recycle' }), { options: {} }),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'StorageClass.storage.k8s.io "none" is invalid: [provisioner: Required value, reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"]',
      },
    );
    const current = await store.get(ctx, 'standard', {});
    await rejectsWithStatus(
      store.update(
        ctx,
        'standard',
        put({
          ...current,
          provisioner: 'x.io/y',
          parameters: {},
          reclaimPolicy: 'Retain',
          volumeBindingMode: 'WaitForFirstConsumer',
        }),
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'StorageClass.storage.k8s.io "standard" is invalid: [parameters: Forbidden: updates to parameters are forbidden., provisioner: Forbidden: updates to provisioner are forbidden., reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden., volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable]',
      },
    );
    const relabeled = await store.update(ctx, 'standard', put({ ...current, allowVolumeExpansion: true }));
    assert.equal(relabeled.object.allowVolumeExpansion, true);
  });
});
