import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CSINode } from '../../../api/storage/v1/csi-node.js';
import type { Store } from '../../generic/store.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { newCSINodeREST } from './storage.js';

const node = (name: string, drivers: CSINode['spec']['drivers']): CSINode => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'CSINode',
  metadata: { name },
  spec: { drivers },
});

describe('csinodes', () => {
  let env: MemoryRESTOptions;
  let store: Store<CSINode>;
  const ctx = testContext('');
  before(async () => {
    env = await memoryRESTOptions();
    store = await newCSINodeREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('stores a node and prints NAME DRIVERS AGE', async () => {
    const out = await store.create(
      ctx,
      node('node-1', [{ name: 'a.csi.io', nodeID: 'i-1', allocatable: { count: 10 } }]),
      {
        options: {},
      },
    );
    const table = store.convertToTable(ctx, out, {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Drivers', 'Age'],
    );
    assert.deepEqual(table.rows[0]?.cells.slice(0, 2), ['node-1', 1]);
  });

  it('rejects duplicate drivers and a missing node ID', async () => {
    await rejectsWithStatus(
      store.create(
        ctx,
        node('node-2', [
          { name: 'a.csi.io', nodeID: 'x' },
          { name: 'a.csi.io', nodeID: '' },
        ]),
        { options: {} },
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'CSINode.storage.k8s.io "node-2" is invalid: [spec.drivers[1].name: Duplicate value: "a.csi.io", spec.drivers[1].nodeID: Required value]',
      },
    );
  });
});
