import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ConfigMap } from '../../../api/core/v1/config-map.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import type { Store } from '../../generic/store.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { isConfigMapKey } from './config-map-key.js';
import { newConfigMapREST } from './storage.js';

const cm = (name: string, more: Partial<ConfigMap> = {}): ConfigMap => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  ...more,
});
const put = (obj: ConfigMap): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});
const keyRule =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

describe('configmaps', () => {
  let env: MemoryRESTOptions;
  let store: Store<ConfigMap>;
  const ctx = testContext('default');
  before(async () => {
    env = await memoryRESTOptions();
    store = await newConfigMapREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('stores under /registry/configmaps/<ns>/<name> without a generation', async () => {
    const out = await store.create(ctx, cm('app', { data: { a: '1' }, binaryData: { b: 'AAE=' } }), {
      options: {},
    });
    assert.equal(out.metadata?.generation, undefined);
    assert.notEqual((await env.backend.get('/registry/configmaps/default/app')).kv, null);
    assert.deepEqual(store.shortNames(), ['cm']);
    assert.equal(store.singularName(), 'configmap');
  });

  it('prints NAME DATA AGE', async () => {
    const table = store.convertToTable(ctx, await store.get(ctx, 'app', {}), {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => [c.name, c.type, c.format, c.priority]),
      [
        ['Name', 'string', 'name', 0],
        ['Data', 'string', '', 0],
        ['Age', 'string', '', 0],
      ],
    );
    assert.equal(table.rows[0]?.cells[0], 'app');
    assert.equal(table.rows[0].cells[1], 2);
    assert.match(String(table.rows[0].cells[2]), /^\d+s$/);
  });

  it('validates keys, duplicates between data and binaryData, and names', async () => {
    await rejectsWithStatus(
      store.create(ctx, cm('k', { data: { 'a b': 'x', '..x': 'y' } }), { options: {} }),
      {
        code: 422,
        reason: 'Invalid',
        message: `ConfigMap "k" is invalid: [data[..x]: Invalid value: "..x": must not start with '..', data[a b]: Invalid value: "a b": ${keyRule}]`,
      },
    );
    await rejectsWithStatus(
      store.create(ctx, cm('d', { data: { k: 'x' }, binaryData: { k: 'eA==' } }), { options: {} }),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'ConfigMap "d" is invalid: data[k]: Invalid value: "k": duplicate of key present in binaryData',
      },
    );
    assert.deepEqual(isConfigMapKey('.'), ["must not be '.'"]);
    assert.deepEqual(isConfigMapKey('a'.repeat(254)), ['must be no more than 253 characters']);
  });

  it('refuses more than 1 MiB of data', async () => {
    const big = 'x'.repeat(1024 * 1024);
    await rejectsWithStatus(store.create(ctx, cm('big', { data: { a: big, b: 'y' } }), { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message: 'ConfigMap "big" is invalid: []: Too long: may not be more than 1048576 bytes',
    });
  });

  it('keeps data of an immutable ConfigMap', async () => {
    const created = await store.create(ctx, cm('im', { data: { a: '1' }, immutable: true }), { options: {} });
    await rejectsWithStatus(store.update(ctx, 'im', put({ ...created, data: { a: '2' } })), {
      code: 422,
      reason: 'Invalid',
      message: 'ConfigMap "im" is invalid: data: Forbidden: field is immutable when `immutable` is set',
    });
    await rejectsWithStatus(
      store.update(ctx, 'im', put({ ...created, immutable: false, binaryData: { b: 'AA==' } })),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'ConfigMap "im" is invalid: [immutable: Forbidden: field is immutable when `immutable` is set, binaryData: Forbidden: field is immutable when `immutable` is set]',
      },
    );
    const labelled = await store.update(
      ctx,
      'im',
      put({ ...created, metadata: { ...created.metadata, labels: { x: 'y' } } }),
    );
    assert.deepEqual(labelled.object.metadata?.labels, { x: 'y' });
  });

  it('requires a standard or qualified finalizer name', async () => {
    await rejectsWithStatus(
      store.create(ctx, cm('fin', { metadata: { name: 'fin', finalizers: ['custom'] } }), { options: {} }),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'ConfigMap "fin" is invalid: metadata.finalizers[0]: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
      },
    );
  });
});
