import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CSIStorageCapacity } from '../../../api/storage/v1/csi-storage-capacity.js';
import type { Store } from '../../generic/store.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { newCSIStorageCapacityREST } from './storage.js';

const capacity = (name: string, extra: Partial<CSIStorageCapacity> = {}): CSIStorageCapacity => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'CSIStorageCapacity',
  metadata: { name, namespace: 'kube-system' },
  storageClassName: 'fast',
  nodeTopology: { matchLabels: { 'topology.kubernetes.io/zone': 'a' } },
  ...extra,
});
const put = (obj: CSIStorageCapacity): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});
const invalid = (name: string, detail: string) => ({
  code: 422,
  reason: 'Invalid',
  message: `CSIStorageCapacity.storage.k8s.io "${name}" is invalid: ${detail}`,
});

describe('csistoragecapacities', () => {
  let env: MemoryRESTOptions;
  let store: Store<CSIStorageCapacity>;
  const ctx = testContext('kube-system');
  before(async () => {
    env = await memoryRESTOptions();
    store = await newCSIStorageCapacityREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('stores namespaced under csistoragecapacities, without a generation', async () => {
    const out = await store.create(ctx, capacity('zone-a', { capacity: '10Gi' }), { options: {} });
    assert.equal(out.metadata?.generation, undefined);
    assert.equal(store.namespaceScoped(), true);
    assert.notEqual((await env.backend.get('/registry/csistoragecapacities/kube-system/zone-a')).kv, null);
  });

  it('refuses a negative capacity and a bad class name', async () => {
    await rejectsWithStatus(
      store.create(ctx, capacity('neg', { capacity: '-1' }), { options: {} }),
      invalid('neg', 'capacity: Invalid value: "-1": must be greater than or equal to 0'),
    );
    await rejectsWithStatus(
      store.create(ctx, capacity('cls', { storageClassName: 'Fast_Class' }), { options: {} }),
      invalid(
        'cls',
        "storageClassName: Invalid value: \"Fast_Class\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ),
    );
  });

  it('keeps the topology and class immutable, the capacity not, and demands a resourceVersion', async () => {
    const current = await store.get(ctx, 'zone-a', {});
    await rejectsWithStatus(
      store.update(ctx, 'zone-a', put({ ...current, storageClassName: 'slow' })),
      invalid('zone-a', 'storageClassName: Invalid value: "slow": field is immutable'),
    );
    const { object } = await store.update(ctx, 'zone-a', put({ ...current, capacity: '20Gi' }));
    assert.equal(object.capacity, '20Gi');
    const unconditional = { ...object, metadata: { ...object.metadata } };
    delete unconditional.metadata.resourceVersion;
    await rejectsWithStatus(store.update(ctx, 'zone-a', put(unconditional)), {
      code: 422,
      reason: 'Invalid',
      message:
        'csistoragecapacities.storage.k8s.io "zone-a" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
    });
  });

  it('prints NAME STORAGECLASSNAME CAPACITY', async () => {
    const table = store.convertToTable(ctx, await store.get(ctx, 'zone-a', {}), {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'StorageClassName', 'Capacity'],
    );
    assert.deepEqual(table.rows[0]?.cells, ['zone-a', 'fast', '20Gi']);
  });
});
