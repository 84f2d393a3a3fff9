import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Lease } from '../../../api/coordination/v1/lease.js';
import type { Store } from '../../generic/store.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { newLeaseREST } from './storage.js';

const lease = (name: string, spec: Lease['spec'] = {}): Lease => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name },
  spec,
});

const put = (obj: Lease): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});

describe('leases', () => {
  let env: MemoryRESTOptions;
  let store: Store<Lease>;
  const ctx = testContext('kube-system');
  before(async () => {
    env = await memoryRESTOptions();
    store = await newLeaseREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('stores under /registry/leases/<ns>/<name> and drops the gated strategy fields', async () => {
    const out = await store.create(
      ctx,
      lease('sched', { holderIdentity: 'a', leaseDurationSeconds: 15, strategy: 'OldestEmulationVersion' }),
      { options: {} },
    );
    assert.deepEqual(out.spec, { holderIdentity: 'a', leaseDurationSeconds: 15 });
    assert.equal(out.metadata?.generation, undefined);
    assert.notEqual((await env.backend.get('/registry/leases/kube-system/sched')).kv, null);
    assert.deepEqual(store.shortNames(), []);
  });

  it('prints NAME HOLDER AGE', async () => {
    const table = store.convertToTable(ctx, await store.get(ctx, 'sched', {}), {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Holder', 'Age'],
    );
    assert.deepEqual(table.rows[0]?.cells.slice(0, 2), ['sched', 'a']);
  });

  it('rejects a non-positive duration and negative transitions with kube texts', async () => {
    await rejectsWithStatus(
      store.create(ctx, lease('bad', { leaseDurationSeconds: 0, leaseTransitions: -1 }), { options: {} }),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'Lease.coordination.k8s.io "bad" is invalid: [spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0, spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0]',
      },
    );
  });

  it('creates on update and requires a resourceVersion to update', async () => {
    const { created } = await store.update(ctx, 'upsert', put(lease('upsert', { holderIdentity: 'x' })));
    assert.equal(created, true);
    await rejectsWithStatus(store.update(ctx, 'upsert', put(lease('upsert', { holderIdentity: 'y' }))), {
      code: 422,
      reason: 'Invalid',
      message:
        'leases.coordination.k8s.io "upsert" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
    });
  });
});
