import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LimitRange, LimitRangeItem } from '../../../api/core/v1/limit-range.js';
import type { Store } from '../../generic/store.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { newLimitRangeREST } from './storage.js';

const limitRange = (name: string, limits: LimitRangeItem[]): LimitRange => ({
  apiVersion: 'v1',
  kind: 'LimitRange',
  metadata: { name },
  spec: { limits },
});

describe('limitranges', () => {
  let env: MemoryRESTOptions;
  let store: Store<LimitRange>;
  const ctx = testContext('default');
  const invalid = (name: string, limits: LimitRangeItem[], message: string): Promise<unknown> =>
    rejectsWithStatus(store.create(ctx, limitRange(name, limits), { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message: `LimitRange "${name}" is invalid: ${message}`,
    });
  before(async () => {
    env = await memoryRESTOptions();
    store = await newLimitRangeREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('defaults a Container item: default from max, defaultRequest from default then min', async () => {
    const out = await store.create(
      ctx,
      limitRange('lr', [
        {
          type: 'Container',
          max: { cpu: '2', memory: '1Gi' },
          min: { cpu: '100m', 'ephemeral-storage': '1Gi' },
        },
        { type: 'Pod', max: { cpu: '4' } },
      ]),
      { options: {} },
    );
    assert.deepEqual(out.spec?.limits[0], {
      type: 'Container',
      max: { cpu: '2', memory: '1Gi' },
      min: { cpu: '100m', 'ephemeral-storage': '1Gi' },
      default: { cpu: '2', memory: '1Gi' },
      defaultRequest: { cpu: '2', memory: '1Gi', 'ephemeral-storage': '1Gi' },
    });
    assert.deepEqual(out.spec.limits[1], { type: 'Pod', max: { cpu: '4' } });
    assert.equal(out.metadata?.generation, undefined);
    assert.deepEqual(store.shortNames(), ['limits']);
  });

  it('orders min <= default request <= default <= max with kube texts', async () => {
    await invalid(
      'minmax',
      [{ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }],
      // The defaults come from max (1), so the min is above them too.
      '[spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1, spec.limits[0].defaultRequest[cpu]: Invalid value: "1": min value 2 is greater than default request value 1, spec.limits[0].default[cpu]: Invalid value: "2": min value 2 is greater than default value 1]',
    );
    await invalid(
      'order',
      [
        {
          type: 'Container',
          default: { memory: '100Mi' },
          defaultRequest: { memory: '200Mi' },
          max: { memory: '150Mi' },
        },
      ],
      '[spec.limits[0].defaultRequest[memory]: Invalid value: "200Mi": default request value 200Mi is greater than max value 150Mi, spec.limits[0].defaultRequest[memory]: Invalid value: "200Mi": default request value 200Mi is greater than default limit value 100Mi]',
    );
    await invalid(
      'over',
      [{ type: 'Container', default: { cpu: '3' }, max: { cpu: '2' } }],
      '[spec.limits[0].defaultRequest[cpu]: Invalid value: "3": default request value 3 is greater than max value 2, spec.limits[0].default[cpu]: Invalid value: "2": default value 3 is greater than max value 2]',
    );
  });

  it('checks maxLimitRequestRatio against 1 and max/min', async () => {
    await invalid(
      'ratio',
      [{ type: 'Pod', maxLimitRequestRatio: { cpu: '500m' } }],
      'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "500m": ratio 500m is less than 1',
    );
    await invalid(
      'ratio2',
      [
        {
          type: 'Pod',
          min: { memory: '1Gi' },
          max: { memory: '2Gi' },
          maxLimitRequestRatio: { memory: '3' },
        },
      ],
      'spec.limits[0].maxLimitRequestRatio[memory]: Invalid value: "3": ratio 3 is greater than max/min = 2.000000',
    );
  });

  it('refuses unknown types, duplicate types, Pod defaults, bad names and PVC items without storage', async () => {
    await invalid(
      'types',
      [{ type: 'Node' }, { type: 'Pod', default: { cpu: '1' } }, { type: 'Pod', max: { gpu: '1' } }],
      '[spec.limits[0].type: Invalid value: "Node": must be a standard limit type or fully qualified, spec.limits[1].default: Forbidden: may not be specified when `type` is \'Pod\', spec.limits[2].type: Duplicate value: "Pod", spec.limits[2].max[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified, spec.limits[2].max[gpu]: Invalid value: "gpu": must be a standard resource for containers]',
    );
    await invalid(
      'untyped',
      [{} as LimitRangeItem],
      `[spec.limits[0].type: Invalid value: "": name part must be non-empty, spec.limits[0].type: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')]`,
    );
    await invalid(
      'pvc',
      [{ type: 'PersistentVolumeClaim', max: { cpu: '1' } }],
      'spec.limits[0].limits: Required value: either minimum or maximum storage value is required, but neither was provided',
    );
    const ok = await store.create(
      ctx,
      limitRange('pvc-ok', [{ type: 'PersistentVolumeClaim', max: { storage: '10Gi' } }]),
      {
        options: {},
      },
    );
    assert.equal(ok.spec?.limits[0]?.type, 'PersistentVolumeClaim');
  });

  it('defaults a resource named like an Object.prototype member as any other, and refuses it everywhere', async () => {
    const refused = (list: string): string =>
      `spec.limits[0].${list}[constructor]: Invalid value: "constructor": must be a standard resource type or fully qualified, spec.limits[0].${list}[constructor]: Invalid value: "constructor": must be a standard resource for containers`;
    await invalid(
      'proto',
      [{ type: 'Container', max: { constructor: '1' } }],
      `[${['max', 'default', 'defaultRequest'].map(refused).join(', ')}]`,
    );
  });

  it('prints NAME CREATED AT', async () => {
    const table = store.convertToTable(ctx, await store.get(ctx, 'lr', {}), {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Created At'],
    );
    assert.equal(table.rows[0]?.cells[0], 'lr');
    assert.match(String(table.rows[0].cells[1]), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });
});
