import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PriorityClass } from '../../../api/scheduling/v1/priority-class.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { newPriorityClassREST, type PriorityClassREST } from './storage.js';
import { systemPriorityClasses } from './strategy.js';

const pc = (name: string, more: Partial<PriorityClass> = {}): PriorityClass => ({
  apiVersion: 'scheduling.k8s.io/v1',
  kind: 'PriorityClass',
  metadata: { name },
  value: 1000,
  ...more,
});

const put = (obj: PriorityClass): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});

describe('priorityclasses', () => {
  let env: MemoryRESTOptions;
  let store: PriorityClassREST;
  const ctx = testContext('');
  before(async () => {
    env = await memoryRESTOptions();
    store = await newPriorityClassREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('stores cluster-scoped under /registry/priorityclasses, defaulting the preemption policy', async () => {
    const out = await store.create(ctx, pc('high'), { options: {} });
    assert.equal(out.preemptionPolicy, 'PreemptLowerPriority');
    assert.notEqual((await env.backend.get('/registry/priorityclasses/high')).kv, null);
    assert.deepEqual(store.shortNames(), ['pc']);
    assert.equal(store.namespaceScoped(), false);
  });

  it('prints NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY', async () => {
    const table = store.convertToTable(ctx, await store.get(ctx, 'high', {}), {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Value', 'Global-Default', 'Age', 'PreemptionPolicy'],
    );
    const cells = table.rows[0]?.cells ?? [];
    assert.deepEqual([cells[0], cells[1], cells[2], cells[4]], ['high', 1000, false, 'PreemptLowerPriority']);
  });

  it('keeps value and preemptionPolicy immutable', async () => {
    const current = await store.get(ctx, 'high', {});
    await rejectsWithStatus(
      store.update(ctx, 'high', put({ ...current, value: 5, preemptionPolicy: 'Never' })),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'PriorityClass.scheduling.k8s.io "high" is invalid: [value: Forbidden: may not be changed in an update., preemptionPolicy: Invalid value: "Never": field is immutable]',
      },
    );
    const updated = await store.update(ctx, 'high', put({ ...current, description: 'd' }));
    assert.equal(updated.object.description, 'd');
  });

  it('reserves the system- prefix and caps user values', async () => {
    await rejectsWithStatus(store.create(ctx, pc('system-mine'), { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        'PriorityClass.scheduling.k8s.io "system-mine" is invalid: metadata.name: Forbidden: priority class names with \'system-\' prefix are reserved for system use only. error: system-mine is not a known system priority class',
    });
    await rejectsWithStatus(store.create(ctx, pc('system-node-critical', { value: 7 }), { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        'PriorityClass.scheduling.k8s.io "system-node-critical" is invalid: metadata.name: Forbidden: priority class names with \'system-\' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000',
    });
    await rejectsWithStatus(
      store.create(ctx, pc('huge', { value: 1_000_000_001, preemptionPolicy: 'Sometimes' }), { options: {} }),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'PriorityClass.scheduling.k8s.io "huge" is invalid: [value: Forbidden: maximum allowed value of a user defined priority is 1000000000, preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"]',
      },
    );
  });

  it('allows one global default only', async () => {
    await store.create(ctx, pc('default-a', { globalDefault: true }), { options: {} });
    await rejectsWithStatus(store.create(ctx, pc('default-b', { globalDefault: true }), { options: {} }), {
      code: 403,
      reason: 'Forbidden',
      message:
        'priorityclasses.scheduling.k8s.io "default-b" is forbidden: PriorityClass default-a is already marked as default. Only one default can exist',
    });
    const high = await store.get(ctx, 'high', {});
    await rejectsWithStatus(store.update(ctx, 'high', put({ ...high, globalDefault: true })), {
      code: 403,
      reason: 'Forbidden',
    });
    // Server-side apply creates through update; the rule holds there too.
    await rejectsWithStatus(
      store.update(ctx, 'applied', {
        ...put(pc('applied', { globalDefault: true })),
        forceAllowCreate: true,
      }),
      { code: 403, reason: 'Forbidden' },
    );
    // The default itself may be updated.
    const a = await store.get(ctx, 'default-a', {});
    await store.update(ctx, 'default-a', put({ ...a, description: 'still default' }));
  });

  it('refuses to delete a system priority class', async () => {
    const [node] = systemPriorityClasses;
    assert.ok(node !== undefined);
    await store.create(ctx, { ...structuredClone(node) }, { options: {} });
    await rejectsWithStatus(store.delete(ctx, 'system-node-critical', { options: {} }), {
      code: 403,
      reason: 'Forbidden',
      message:
        'priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted',
    });
    await store.delete(ctx, 'high', { options: {} });
  });
});
