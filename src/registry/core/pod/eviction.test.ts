import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { PodStatus } from '../../../api/core/v1/pod-status.js';
import type { Eviction } from '../../../api/policy/v1/eviction.js';
import type {
  PodDisruptionBudget,
  PodDisruptionBudgetStatus,
} from '../../../api/policy/v1/pod-disruption-budget.js';
import { isStatusError } from '../../../machinery/errors/index.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import {
  newPodDisruptionBudgetREST,
  type PodDisruptionBudgetStorage,
} from '../../policy/poddisruptionbudget/storage.js';
import { maxDisruptedPodSize } from './disruption-budget.js';
import { EvictionREST } from './eviction.js';
import { newPodREST, type PodStorage } from './storage.js';

const put = <T>(obj: T): UpdateRequest => ({
  objInfo: {
    preconditions: () => undefined,
    updatedObject: () => Promise.resolve(structuredClone(obj) as never),
  },
  options: {},
});
const eviction = (name: string, deleteOptions?: Eviction['deleteOptions']): Eviction => ({
  apiVersion: 'policy/v1',
  kind: 'Eviction',
  metadata: { name },
  ...(deleteOptions !== undefined ? { deleteOptions } : {}),
});
const running: PodStatus = {
  phase: 'Running',
  conditions: [{ type: 'Ready', status: 'True' }],
};
const notReady: PodStatus = { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] };

describe('pods/eviction', () => {
  let env: MemoryRESTOptions;
  let pods: PodStorage;
  let pdbs: PodDisruptionBudgetStorage;
  let rest: EvictionREST;
  let served = true;
  const ctx = testContext('default');

  before(async () => {
    env = await memoryRESTOptions();
    pods = await newPodREST({ restOptionsGetter: env.getter });
    pdbs = await newPodDisruptionBudgetREST({ restOptionsGetter: env.getter });
    rest = new EvictionREST({
      pods: pods.pods,
      disruptionBudgets: () =>
        served ? { budgets: pdbs.podDisruptionBudgets, status: pdbs.status } : undefined,
      retryDelayMs: 1,
    });
  });
  after(() => env.close());

  beforeEach(async () => {
    served = true;
    for (const p of (await pods.pods.list(ctx, {})).items) {
      await pods.pods.delete(ctx, p.metadata?.name ?? '', { options: { gracePeriodSeconds: 0 } });
    }
    for (const p of (await pdbs.podDisruptionBudgets.list(ctx, {})).items) {
      await pdbs.podDisruptionBudgets.delete(ctx, p.metadata?.name ?? '', { options: {} });
    }
  });

  /** A pod bound to node1 with the given status (set through pods/status). */
  async function makePod(name: string, status: PodStatus, labels = { app: 'web' }): Promise<Pod> {
    const created = await pods.pods.create(
      ctx,
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, labels },
        spec: { nodeName: 'node1', containers: [{ name: 'app', image: 'nginx:1.25' }] },
      },
      { options: {} },
    );
    return (
      await pods.status.update(ctx, name, put({ ...created, status: { ...created.status, ...status } }))
    ).object;
  }

  /** A budget selecting app=web whose status the disruption controller would have written. */
  async function makePDB(
    name: string,
    status: Partial<PodDisruptionBudgetStatus>,
    spec: PodDisruptionBudget['spec'] = {},
  ): Promise<PodDisruptionBudget> {
    const created = await pdbs.podDisruptionBudgets.create(
      ctx,
      {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name },
        spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } }, ...spec },
      },
      { options: {} },
    );
    const full: PodDisruptionBudgetStatus = {
      disruptionsAllowed: 0,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
      observedGeneration: created.metadata?.generation ?? 0,
      ...status,
    };
    return (await pdbs.status.update(ctx, name, put({ ...created, status: full }))).object;
  }

  const evict = (name: string, e: Eviction = eviction(name), dryRun?: string[]): Promise<unknown> =>
    rest.createNamed(ctx, name, { obj: e, options: dryRun !== undefined ? { dryRun } : {} });

  it('is a policy/v1 Eviction that also takes v1beta1', () => {
    assert.deepEqual(rest.newObject(), { apiVersion: 'policy/v1', kind: 'Eviction' });
    assert.equal(rest.acceptsGroupVersion({ group: 'policy', version: 'v1beta1' }), true);
    assert.equal(rest.acceptsGroupVersion({ group: 'policy', version: 'v1' }), true);
    assert.equal(rest.acceptsGroupVersion({ group: 'apps', version: 'v1' }), false);
  });

  it('rejects a body naming another pod with 400', async () => {
    await makePod('a', running);
    await rejectsWithStatus(evict('a', eviction('b')), {
      code: 400,
      reason: 'BadRequest',
      message: 'name in URL does not match name in Eviction object',
    });
  });

  it('answers 404 for a missing pod', async () => {
    await rejectsWithStatus(evict('ghost'), {
      code: 404,
      reason: 'NotFound',
      message: 'pods "ghost" not found',
    });
  });

  it('deletes a pod no budget covers, gracefully as a bound pod is', async () => {
    await makePod('a', running);
    const out = await evict('a');
    assert.deepEqual(out, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' });
    const left = await pods.pods.get(ctx, 'a', {});
    assert.notEqual(left.metadata?.deletionTimestamp, undefined);
    assert.equal(left.metadata?.deletionGracePeriodSeconds, 30);
    const target = left.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
    assert.equal(target?.status, 'True');
    assert.equal(target.reason, 'EvictionByEvictionAPI');
    assert.equal(target.message, 'Eviction API: evicting');
  });

  it("honours the Eviction's grace period: 0 removes the pod at once", async () => {
    await makePod('a', running);
    await evict('a', eviction('a', { gracePeriodSeconds: 0 }));
    await rejectsWithStatus(pods.pods.get(ctx, 'a', {}), { code: 404, reason: 'NotFound' });
  });

  it('refuses with 429 and the budget message when no disruption is allowed', async () => {
    await makePod('a', running);
    await makePDB('budget', { disruptionsAllowed: 0, desiredHealthy: 2, currentHealthy: 1, expectedPods: 2 });
    const status = await rejectsWithStatus(evict('a'), {
      code: 429,
      reason: 'TooManyRequests',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
    });
    assert.deepEqual(status.details?.causes, [
      {
        reason: 'DisruptionBudget',
        message: 'The disruption budget budget needs 2 healthy pods and has 1 currently',
      },
    ]);
    const pod = await pods.pods.get(ctx, 'a', {});
    assert.equal(pod.metadata?.deletionTimestamp, undefined);
  });

  it('refuses while the budget status predates its spec (observedGeneration)', async () => {
    await makePod('a', running);
    await makePDB('budget', { disruptionsAllowed: 3, observedGeneration: 0 });
    const status = await rejectsWithStatus(evict('a'), { code: 429, reason: 'TooManyRequests' });
    assert.equal(status.details?.retryAfterSeconds, 10);
    assert.deepEqual(status.details.causes, [
      {
        reason: 'DisruptionBudget',
        message: 'The disruption budget budget is still being processed by the server.',
      },
    ]);
  });

  it('charges the budget: one disruption fewer, the pod among disruptedPods, then deletes', async () => {
    await makePod('a', running);
    await makePod('b', running);
    await makePDB('budget', { disruptionsAllowed: 1, desiredHealthy: 1, currentHealthy: 2, expectedPods: 2 });
    await evict('a', eviction('a', { gracePeriodSeconds: 0 }));
    await rejectsWithStatus(pods.pods.get(ctx, 'a', {}), { code: 404, reason: 'NotFound' });
    const pdb = await pdbs.podDisruptionBudgets.get(ctx, 'budget', {});
    assert.equal(pdb.status?.disruptionsAllowed, 0);
    assert.deepEqual(Object.keys(pdb.status.disruptedPods ?? {}), ['a']);
    const cond = pdb.status.conditions?.find((c) => c.type === 'DisruptionAllowed');
    assert.equal(cond?.status, 'False');
    assert.equal(cond.reason, 'InsufficientPods');
    // The budget is spent: the second pod stays.
    await rejectsWithStatus(evict('b'), { code: 429, reason: 'TooManyRequests' });
  });

  it('dry-run checks the budget but changes neither it nor the pod', async () => {
    await makePod('a', running);
    await makePDB('budget', { disruptionsAllowed: 1 });
    const before = await pdbs.podDisruptionBudgets.get(ctx, 'budget', {});
    await evict('a', eviction('a'), ['All']);
    assert.deepEqual(await pdbs.podDisruptionBudgets.get(ctx, 'budget', {}), before);
    const pod = await pods.pods.get(ctx, 'a', {});
    assert.equal(pod.metadata?.deletionTimestamp, undefined);
    assert.equal(
      pod.status?.conditions?.find((c) => c.type === 'DisruptionTarget'),
      undefined,
    );
    // Dry-run in the Eviction's deleteOptions counts too, and still fails on a spent budget.
    await pdbs.status.update(
      ctx,
      'budget',
      put({ ...before, status: { ...before.status, disruptionsAllowed: 0 } }),
    );
    await rejectsWithStatus(evict('a', eviction('a', { dryRun: ['All'] })), {
      code: 429,
      reason: 'TooManyRequests',
    });
  });

  it('fails with 500 when two budgets cover the pod', async () => {
    await makePod('a', running);
    await makePDB('one', { disruptionsAllowed: 1 });
    await makePDB('two', { disruptionsAllowed: 1 });
    await assert.rejects(evict('a'), (err: unknown) => {
      assert.ok(isStatusError(err));
      assert.deepEqual(err.status, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
        code: 500,
      });
      return true;
    });
  });

  it('ignores budgets that do not select the pod (other labels, no selector)', async () => {
    await makePod('a', running, { app: 'other' });
    await makePDB('budget', { disruptionsAllowed: 0 });
    await pdbs.podDisruptionBudgets.create(
      ctx,
      {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: 'none' },
        spec: { minAvailable: 1 },
      },
      { options: {} },
    );
    await evict('a', eviction('a', { gracePeriodSeconds: 0 }));
    await rejectsWithStatus(pods.pods.get(ctx, 'a', {}), { code: 404, reason: 'NotFound' });
  });

  it('deletes pending, finished and terminating pods without asking the budget', async () => {
    await makePDB('budget', { disruptionsAllowed: 0 });
    await makePod('pending', { phase: 'Pending' });
    await makePod('done', { phase: 'Succeeded' });
    await makePod('failed', { phase: 'Failed' });
    await makePod('leaving', running);
    await pods.pods.delete(ctx, 'leaving', { options: {} });
    for (const name of ['pending', 'done', 'failed', 'leaving']) await evict(name);
    // Finished pods go at once; pending and terminating ones keep their grace period.
    await rejectsWithStatus(pods.pods.get(ctx, 'done', {}), { code: 404, reason: 'NotFound' });
    await rejectsWithStatus(pods.pods.get(ctx, 'failed', {}), { code: 404, reason: 'NotFound' });
    assert.notEqual((await pods.pods.get(ctx, 'pending', {})).metadata?.deletionTimestamp, undefined);
    const pdb = await pdbs.podDisruptionBudgets.get(ctx, 'budget', {});
    assert.equal(pdb.status?.disruptedPods, undefined);
  });

  it('lets an unready pod go under IfHealthyBudget only when the budget is healthy', async () => {
    await makePod('a', notReady);
    await makePDB('budget', { disruptionsAllowed: 0, desiredHealthy: 2, currentHealthy: 1 });
    await rejectsWithStatus(evict('a'), { code: 429, reason: 'TooManyRequests' });
    const pdb = await pdbs.podDisruptionBudgets.get(ctx, 'budget', {});
    await pdbs.status.update(ctx, 'budget', put({ ...pdb, status: { ...pdb.status, currentHealthy: 2 } }));
    await evict('a');
    assert.notEqual((await pods.pods.get(ctx, 'a', {})).metadata?.deletionTimestamp, undefined);
    // Not charged: the pod did not count as healthy.
    const after = await pdbs.podDisruptionBudgets.get(ctx, 'budget', {});
    assert.equal(after.status?.disruptionsAllowed, 0);
    assert.equal(after.status.disruptedPods, undefined);
  });

  it('lets an unready pod go under AlwaysAllow whatever the budget', async () => {
    await makePod('a', notReady);
    await makePDB(
      'budget',
      { disruptionsAllowed: 0, desiredHealthy: 2, currentHealthy: 0 },
      { unhealthyPodEvictionPolicy: 'AlwaysAllow' },
    );
    await evict('a');
    assert.notEqual((await pods.pods.get(ctx, 'a', {})).metadata?.deletionTimestamp, undefined);
  });

  it("honours the Eviction's preconditions", async () => {
    const pod = await makePod('a', running);
    await rejectsWithStatus(evict('a', eviction('a', { preconditions: { uid: 'other' } })), {
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on Pod "a": the UID in the precondition (other) does not match the UID in record (${pod.metadata?.uid ?? ''}). The object might have been deleted and then recreated`,
    });
    await rejectsWithStatus(evict('a', eviction('a', { preconditions: { resourceVersion: '1' } })), {
      code: 409,
      reason: 'Conflict',
    });
    await evict(
      'a',
      eviction('a', { preconditions: { resourceVersion: pod.metadata?.resourceVersion ?? '' } }),
    );
    assert.notEqual((await pods.pods.get(ctx, 'a', {})).metadata?.deletionTimestamp, undefined);
  });

  it('refuses a budget with too many unconfirmed disruptions (403)', async () => {
    await makePod('a', running);
    const disrupted = Object.fromEntries(
      Array.from({ length: maxDisruptedPodSize + 1 }, (_, i) => [`p${String(i)}`, '2026-01-01T00:00:00Z']),
    );
    await makePDB('budget', { disruptionsAllowed: 1, disruptedPods: disrupted });
    await rejectsWithStatus(evict('a'), {
      code: 403,
      reason: 'Forbidden',
      message:
        'poddisruptionbudget.policy "budget" is forbidden: DisruptedPods map too big - too many evictions not confirmed by PDB controller',
    });
  });

  it('is a plain delete while poddisruptionbudgets are not served', async () => {
    served = false;
    await makePod('a', running);
    await makePDB('budget', { disruptionsAllowed: 0 });
    await evict('a', eviction('a', { gracePeriodSeconds: 0 }));
    await rejectsWithStatus(pods.pods.get(ctx, 'a', {}), { code: 404, reason: 'NotFound' });
  });
});
