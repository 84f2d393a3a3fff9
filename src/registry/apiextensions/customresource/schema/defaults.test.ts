import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { applyDefaults, pruneNonNullableNullsWithoutDefaults } from './defaults.js';

const schema = (): JSONSchemaProps => ({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      default: {},
      properties: {
        replicas: { type: 'integer', default: 1 },
        mode: { type: 'string', default: 'a', nullable: true },
        opts: { type: 'object', default: { x: [1] } },
        items: {
          type: 'array',
          items: {
            type: 'object',
            default: { n: 'd' },
            properties: { n: { type: 'string' }, k: { type: 'integer', default: 7 } },
          },
        },
        byName: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            default: {},
            properties: { w: { type: 'integer', default: 3 } },
          },
        },
        noDefault: { type: 'string' },
      },
    },
  },
});

describe('applyDefaults', () => {
  it('defaults absent properties recursively, including defaults just set', () => {
    const obj: Record<string, unknown> = {};
    applyDefaults(obj, schema());
    assert.deepEqual(obj, { spec: { replicas: 1, mode: 'a', opts: { x: [1] } } });
  });

  it('replaces nulls of non-nullable fields but keeps nulls of nullable ones', () => {
    const obj: Record<string, unknown> = { spec: { replicas: null, mode: null, noDefault: null } };
    applyDefaults(obj, schema());
    assert.deepEqual(obj, { spec: { replicas: 1, mode: null, noDefault: null, opts: { x: [1] } } });
  });

  it('defaults array items and additionalProperties values, null items included', () => {
    const obj: Record<string, unknown> = { spec: { items: [{ n: 'a' }, null], byName: { a: {}, b: null } } };
    applyDefaults(obj, schema());
    const spec = obj['spec'] as Record<string, unknown>;
    assert.deepEqual(spec['items'], [
      { n: 'a', k: 7 },
      { n: 'd', k: 7 },
    ]);
    assert.deepEqual(spec['byName'], { a: { w: 3 }, b: { w: 3 } });
  });

  it('deep-copies defaults so objects do not share them', () => {
    const s = schema();
    const a: Record<string, unknown> = {};
    const b: Record<string, unknown> = {};
    applyDefaults(a, s);
    applyDefaults(b, s);
    ((a['spec'] as Record<string, unknown>)['opts'] as { x: number[] }).x.push(2);
    assert.deepEqual((b['spec'] as Record<string, unknown>)['opts'], { x: [1] });
    assert.deepEqual(s.properties?.['spec']?.properties?.['opts']?.default, { x: [1] });
  });

  it('copies a default that holds a __proto__ key with that key, as an ordinary member', () => {
    const s: JSONSchemaProps = {
      type: 'object',
      properties: { m: { type: 'object', default: JSON.parse('{"__proto__":"x","a":"y"}') as unknown } },
    };
    const obj: Record<string, unknown> = {};
    applyDefaults(obj, s);
    const m = obj['m'] as Record<string, unknown>;
    assert.deepEqual(Object.keys(m), ['__proto__', 'a']);
    assert.equal(Object.getPrototypeOf(m), Object.prototype);
  });

  it('leaves values of the wrong type alone', () => {
    const obj: Record<string, unknown> = { spec: { items: { n: 1 }, byName: ['x'], opts: 'str' } };
    applyDefaults(obj, schema());
    assert.deepEqual(obj, { spec: { items: { n: 1 }, byName: ['x'], opts: 'str', replicas: 1, mode: 'a' } });
    const arr: Record<string, unknown> = { spec: [1, 2] };
    applyDefaults(arr, schema());
    assert.deepEqual(arr, { spec: [1, 2] });
  });
});

describe('pruneNonNullableNullsWithoutDefaults', () => {
  it('drops nulls of non-nullable fields without default, keeps the others', () => {
    const obj: Record<string, unknown> = {
      spec: { noDefault: null, mode: null, replicas: null, items: [null] },
    };
    pruneNonNullableNullsWithoutDefaults(obj, schema());
    assert.deepEqual(obj, { spec: { mode: null, replicas: null, items: [null] } });
  });
});
