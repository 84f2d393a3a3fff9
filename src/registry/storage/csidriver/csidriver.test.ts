import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CSIDriver } from '../../../api/storage/v1/csi-driver.js';
import type { Store } from '../../generic/store.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { newCSIDriverREST } from './storage.js';

const driver = (name: string, spec: CSIDriver['spec'] = {}): CSIDriver => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'CSIDriver',
  metadata: { name },
  spec,
});
const put = (obj: CSIDriver): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});

describe('csidrivers', () => {
  let env: MemoryRESTOptions;
  let store: Store<CSIDriver>;
  const ctx = testContext('');
  before(async () => {
    env = await memoryRESTOptions();
    store = await newCSIDriverREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('applies the v1 defaults', async () => {
    const out = await store.create(ctx, driver('ebs.csi.aws.com'), { options: {} });
    assert.deepEqual(out.spec, {
      attachRequired: true,
      podInfoOnMount: false,
      storageCapacity: false,
      fsGroupPolicy: 'ReadWriteOnceWithFSType',
      volumeLifecycleModes: ['Persistent'],
      requiresRepublish: false,
      seLinuxMount: false,
    });
  });

  it('prints NAME ATTACHREQUIRED PODINFOONMOUNT STORAGECAPACITY TOKENREQUESTS REQUIRESREPUBLISH MODES AGE', async () => {
    const table = store.convertToTable(ctx, await store.get(ctx, 'ebs.csi.aws.com', {}), {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      [
        'Name',
        'AttachRequired',
        'PodInfoOnMount',
        'StorageCapacity',
        'TokenRequests',
        'RequiresRepublish',
        'Modes',
        'Age',
      ],
    );
    assert.deepEqual(table.rows[0]?.cells.slice(0, 7), [
      'ebs.csi.aws.com',
      true,
      false,
      false,
      '<unset>',
      false,
      'Persistent',
    ]);
  });

  it('keeps attachRequired immutable and checks modes', async () => {
    const current = await store.get(ctx, 'ebs.csi.aws.com', {});
    await rejectsWithStatus(
      store.update(
        ctx,
        'ebs.csi.aws.com',
        put({ ...current, spec: { ...current.spec, attachRequired: false } }),
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'CSIDriver.storage.k8s.io "ebs.csi.aws.com" is invalid: spec.attachRequired: Invalid value: false: field is immutable',
      },
    );
    await rejectsWithStatus(
      store.create(ctx, driver('d', { volumeLifecycleModes: ['Forever'] }), { options: {} }),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'CSIDriver.storage.k8s.io "d" is invalid: spec.volumeLifecycleModes[0]: Unsupported value: "Forever": supported values: "Persistent", "Ephemeral"',
      },
    );
  });
});
