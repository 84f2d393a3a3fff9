import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ResourceQuota, ResourceQuotaSpec } from '../../../api/core/v1/resource-quota.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { newResourceQuotaREST, type ResourceQuotaStorage } from './storage.js';

const quota = (name: string, spec: ResourceQuotaSpec, status?: ResourceQuota['status']): ResourceQuota => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name },
  spec,
  ...(status !== undefined ? { status } : {}),
});

const put = (obj: ResourceQuota): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});

describe('resourcequotas', () => {
  let env: MemoryRESTOptions;
  let s: ResourceQuotaStorage;
  const ctx = testContext('default');
  const invalid = (name: string, spec: ResourceQuotaSpec, message: string): Promise<unknown> =>
    rejectsWithStatus(s.resourceQuotas.create(ctx, quota(name, spec), { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message: `ResourceQuota "${name}" is invalid: ${message}`,
    });
  before(async () => {
    env = await memoryRESTOptions();
    s = await newResourceQuotaREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('creates with an empty status whatever the request says', async () => {
    const out = await s.resourceQuotas.create(
      ctx,
      quota(
        'q',
        { hard: { pods: '10', 'limits.cpu': '4', 'requests.memory': '1Gi' } },
        { used: { pods: '99' } },
      ),
      { options: {} },
    );
    assert.deepEqual(out.status, {});
    assert.deepEqual(out.spec?.hard, { pods: '10', 'limits.cpu': '4', 'requests.memory': '1Gi' });
    assert.equal(out.metadata?.generation, undefined);
    assert.deepEqual(s.resourceQuotas.shortNames(), ['quota']);
  });

  it('validates resource names and quantities with kube texts', async () => {
    await invalid(
      'names',
      { hard: { foo: '1', storage: '1Gi', 'example.com/gpu': '1' } },
      '[spec.hard[foo]: Invalid value: "foo": must be a standard resource type or fully qualified, spec.hard[foo]: Invalid value: "foo": must be a standard resource for quota, spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota]',
    );
    await invalid(
      'values',
      { hard: { pods: '1500m', cpu: '-1', 'count/deployments.apps': '2' } },
      '[spec.hard[cpu]: Invalid value: "-1": must be greater than or equal to 0, spec.hard[pods]: Invalid value: "1500m": must be an integer]',
    );
  });

  it('validates scopes: known, valid for the resources, not conflicting', async () => {
    await invalid(
      'scopes',
      { hard: { 'requests.storage': '1Gi', pods: '1' }, scopes: ['BestEffort', 'NotBestEffort', 'Nope'] },
      '[spec.scopes: Invalid value: ["BestEffort","NotBestEffort","Nope"]: unsupported scope applied to resource, spec.scopes: Invalid value: ["BestEffort","NotBestEffort","Nope"]: unsupported scope, spec.scopes: Invalid value: ["BestEffort","NotBestEffort","Nope"]: conflicting scopes]',
    );
    await invalid(
      'selector',
      {
        hard: { pods: '1' },
        scopeSelector: { matchExpressions: [{ scopeName: 'Terminating', operator: 'In', values: [] }] },
      },
      "[spec.scopeSelector.matchExpressions.operator: Invalid value: \"In\": must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity, spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector]",
    );
    const scoped = await s.resourceQuotas.create(
      ctx,
      quota('scoped', { hard: { pods: '5', cpu: '2' }, scopes: ['NotTerminating'] }),
      {
        options: {},
      },
    );
    const changed = structuredClone(scoped);
    changed.spec = { ...changed.spec, scopes: ['Terminating'] };
    await rejectsWithStatus(s.resourceQuotas.update(ctx, 'scoped', put(changed)), {
      code: 422,
      reason: 'Invalid',
      message:
        'ResourceQuota "scoped" is invalid: spec.scopes: Invalid value: ["Terminating"]: field is immutable',
    });
  });

  it('takes status only through resourcequotas/status, and spec only through the main resource', async () => {
    const cur = await s.resourceQuotas.get(ctx, 'q', {});
    const withStatus = structuredClone(cur);
    withStatus.status = { hard: { pods: '10' }, used: { pods: '3' } };
    if (withStatus.spec !== undefined) withStatus.spec.hard = { pods: '20' };
    const main = (await s.resourceQuotas.update(ctx, 'q', put(withStatus))).object;
    assert.deepEqual(main.status, {});
    assert.deepEqual(main.spec?.hard, { pods: '20' });

    const st = structuredClone(main);
    st.status = { hard: { pods: '20', 'limits.cpu': '4' }, used: { pods: '3', 'limits.cpu': '500m' } };
    if (st.spec !== undefined) st.spec.hard = { pods: '1' };
    const updated = (await s.status.update(ctx, 'q', put(st))).object;
    assert.deepEqual(updated.status, st.status);
    assert.deepEqual(updated.spec?.hard, { pods: '20' });

    const bad = structuredClone(updated);
    bad.status = { used: { pods: '-1' } };
    await rejectsWithStatus(s.status.update(ctx, 'q', put(bad)), {
      code: 422,
      reason: 'Invalid',
      message:
        'ResourceQuota "q" is invalid: status.used[pods]: Invalid value: "-1": must be greater than or equal to 0',
    });
  });

  it('prints NAME AGE REQUEST LIMIT from the status', async () => {
    const table = s.resourceQuotas.convertToTable(ctx, await s.resourceQuotas.get(ctx, 'q', {}), {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Age', 'Request', 'Limit'],
    );
    const cells = table.rows[0]?.cells ?? [];
    assert.equal(cells[0], 'q');
    assert.deepEqual(cells.slice(2), ['pods: 3/20', 'limits.cpu: 500m/4']);
    const fresh = s.resourceQuotas.convertToTable(ctx, await s.resourceQuotas.get(ctx, 'scoped', {}), {});
    assert.deepEqual(fresh.rows[0]?.cells.slice(2), ['', '']);
  });
});
