import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PodDisruptionBudget } from '../../../api/policy/v1/pod-disruption-budget.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { newPodDisruptionBudgetREST, type PodDisruptionBudgetStorage } from './storage.js';

const pdb = (name: string, spec: NonNullable<PodDisruptionBudget['spec']>): PodDisruptionBudget => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name },
  spec,
});
const put = (obj: PodDisruptionBudget): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});

describe('poddisruptionbudgets', () => {
  let env: MemoryRESTOptions;
  let storage: PodDisruptionBudgetStorage;
  const ctx = testContext('default');
  before(async () => {
    env = await memoryRESTOptions();
    storage = await newPodDisruptionBudgetREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('stores with an empty status and generation 1, short name pdb', async () => {
    const out = await storage.podDisruptionBudgets.create(
      ctx,
      {
        ...pdb('p', { minAvailable: '50%', selector: { matchLabels: { app: 'x' } } }),
        status: { disruptionsAllowed: 9, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
      },
      { options: {} },
    );
    assert.deepEqual(out.status, {
      disruptionsAllowed: 0,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
    });
    assert.equal(out.metadata?.generation, 1);
    assert.notEqual((await env.backend.get('/registry/poddisruptionbudgets/default/p')).kv, null);
    assert.deepEqual(storage.podDisruptionBudgets.shortNames(), ['pdb']);
  });

  it('prints NAME MIN AVAILABLE MAX UNAVAILABLE ALLOWED DISRUPTIONS AGE', async () => {
    const current = await storage.podDisruptionBudgets.get(ctx, 'p', {});
    const status = { disruptionsAllowed: 2, currentHealthy: 3, desiredHealthy: 1, expectedPods: 3 };
    const updated = await storage.status.update(
      ctx,
      'p',
      put({ ...current, spec: { maxUnavailable: 1 }, status }),
    );
    assert.deepEqual(updated.object.spec, current.spec);
    const table = storage.podDisruptionBudgets.convertToTable(ctx, updated.object, {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age'],
    );
    assert.deepEqual(table.rows[0]?.cells.slice(0, 4), ['p', '50%', 'N/A', 2]);
  });

  it('rejects both bounds, bad percentages and negative status counters', async () => {
    const status = await rejectsWithStatus(
      storage.podDisruptionBudgets.create(ctx, pdb('both', { minAvailable: 1, maxUnavailable: '150%' }), {
        options: {},
      }),
      { code: 422, reason: 'Invalid' },
    );
    assert.deepEqual(
      status.details?.causes?.map((c) => `${c.field ?? ''}: ${c.message ?? ''}`),
      [
        'spec: Invalid value: {"minAvailable":1,"maxUnavailable":"150%"}: minAvailable and maxUnavailable cannot be both set',
        'spec.maxUnavailable: Invalid value: "150%": must not be greater than 100%',
      ],
    );
    const current = await storage.podDisruptionBudgets.get(ctx, 'p', {});
    await rejectsWithStatus(
      storage.status.update(
        ctx,
        'p',
        put({
          ...current,
          status: { disruptionsAllowed: -1, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
        }),
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'PodDisruptionBudget.policy "p" is invalid: status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0',
      },
    );
  });
});
