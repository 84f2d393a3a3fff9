import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { Correlation } from './correlation.js';
import { validateCustomResourceObject } from './validate-object.js';

type Obj = Record<string, unknown>;

const onUpdate = (obj: Obj, old: Obj, s: JSONSchemaProps): string[] =>
  validateCustomResourceObject(obj, s, new Correlation(obj, old, s)).map((e) => e.error());

const spec = (properties: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: 'object',
  properties: { apiVersion: { type: 'string' }, spec: { type: 'object', properties, ...extra } },
});

const item: JSONSchemaProps = {
  type: 'object',
  properties: { name: { type: 'string' }, port: { type: 'integer', maximum: 100 } },
};

describe('validation ratcheting (CRDValidationRatcheting)', () => {
  it('drops errors of unchanged fields and keeps those of changed ones', () => {
    const s = spec({
      name: { type: 'string', maxLength: 3 },
      mode: { type: 'string', enum: ['a', 'b'] },
      code: { type: 'string', pattern: '^[a-z]+$' },
      n: { type: 'integer', maximum: 5 },
      other: { type: 'string' },
    });
    const old = { spec: { name: 'toolong', mode: 'c', code: 'X1', n: 9, other: 'x' } };
    assert.deepEqual(onUpdate({ spec: { ...old.spec, other: 'y' } }, old, s), []);
    assert.deepEqual(onUpdate({ spec: { ...old.spec, name: 'longer', n: 10 } }, old, s), [
      'spec.name: Too long: value is too long',
      'spec.n: Invalid value: 10: spec.n in body should be less than or equal to 5',
    ]);
    // The same object created: nothing ratchets.
    assert.equal(validateCustomResourceObject(old, s).length, 4);
  });

  it('ratchets a required property (reported at the child) only while its parent is unchanged', () => {
    const s = spec({ a: { type: 'string' }, b: { type: 'string' } }, { required: ['a'] });
    const old = { spec: { b: 'x' } };
    assert.deepEqual(onUpdate({ spec: { b: 'x' }, apiVersion: 'v2' }, { ...old, apiVersion: 'v1' }, s), []);
    assert.deepEqual(onUpdate({ spec: { b: 'y' } }, old, s), ['spec.a: Required value']);
  });

  it('ratchets type errors and keeps them for a value that changed type', () => {
    const s = spec({ n: { type: 'integer' }, m: { type: 'string' } });
    const old = { spec: { n: 'five', m: 'x' } };
    assert.deepEqual(onUpdate({ spec: { n: 'five', m: 'y' } }, old, s), []);
    assert.deepEqual(onUpdate({ spec: { n: 'six', m: 'x' } }, old, s), [
      'spec.n: Invalid value: "string": spec.n in body must be of type integer: "string"',
    ]);
  });

  it('correlates list-type=map items by key, wherever they moved', () => {
    const s = spec({
      ports: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: item,
      },
    });
    const old = {
      spec: {
        ports: [
          { name: 'a', port: 500 },
          { name: 'b', port: 600 },
        ],
      },
    };
    const moved = {
      spec: {
        ports: [
          { name: 'c', port: 1 },
          { name: 'b', port: 600 },
          { name: 'a', port: 500 },
        ],
      },
    };
    assert.deepEqual(onUpdate(moved, old, s), []);
    const changed = {
      spec: {
        ports: [
          { name: 'a', port: 500 },
          { name: 'b', port: 700 },
        ],
      },
    };
    assert.deepEqual(onUpdate(changed, old, s), [
      'spec.ports[1].port: Invalid value: 700: spec.ports[1].port in body should be less than or equal to 100',
    ]);
  });

  it('does not correlate items of atomic and set lists, though an unchanged list ratchets', () => {
    for (const listType of [undefined, 'atomic', 'set']) {
      const list: JSONSchemaProps = { type: 'array', items: item };
      if (listType !== undefined) list['x-kubernetes-list-type'] = listType;
      const s = spec({ ports: list, other: { type: 'string' } });
      const old = {
        spec: {
          ports: [
            { name: 'a', port: 500 },
            { name: 'b', port: 1 },
          ],
          other: 'x',
        },
      };
      assert.deepEqual(onUpdate({ spec: { ...old.spec, other: 'y' } }, old, s), [], String(listType));
      const changed = {
        spec: {
          ports: [
            { name: 'a', port: 500 },
            { name: 'b', port: 2 },
          ],
        },
      };
      assert.deepEqual(
        onUpdate(changed, old, s),
        [
          'spec.ports[0].port: Invalid value: 500: spec.ports[0].port in body should be less than or equal to 100',
        ],
        String(listType),
      );
    }
  });

  it('ratchets additionalProperties values by key', () => {
    const s = spec({ labels: { type: 'object', additionalProperties: { type: 'string', maxLength: 2 } } });
    const old = { spec: { labels: { a: 'long', b: 'x' } } };
    assert.deepEqual(onUpdate({ spec: { labels: { a: 'long', b: 'y' } } }, old, s), []);
    assert.deepEqual(onUpdate({ spec: { labels: { a: 'long', c: 'long' } } }, old, s), [
      'spec.labels.c: Too long: value is too long',
    ]);
  });

  it('never ratchets the root apiVersion and kind', () => {
    const s: JSONSchemaProps = {
      type: 'object',
      properties: { kind: { type: 'string', maxLength: 2 }, spec: { type: 'string', maxLength: 2 }, n: {} },
    };
    const old = { kind: 'Widget', spec: 'long', n: 1 };
    assert.deepEqual(onUpdate({ kind: 'Widget', spec: 'long', n: 2 }, old, s), [
      'kind: Too long: value is too long',
    ]);
  });

  it('reports duplicates of set and map lists only when the old object had none', () => {
    const s = spec({ tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } });
    const dup = { spec: { tags: ['a', 'a'] } };
    assert.deepEqual(onUpdate(dup, { spec: { tags: ['a', 'a', 'b'] } }, s), []);
    assert.deepEqual(onUpdate(dup, { spec: { tags: ['a'] } }, s), ['spec.tags[1]: Duplicate value: "a"']);
  });
});

describe('Correlation', () => {
  it('compares null and absent as equal and caches children', () => {
    const s = spec({ a: { type: 'string', nullable: true } });
    const c = new Correlation({ spec: { a: null } }, { spec: { a: null } }, s);
    assert.equal(c.unchanged(), true);
    assert.equal(c.key('spec'), c.key('spec'));
    assert.equal(new Correlation({ spec: {} }, { spec: { a: 'x' } }, s).unchanged(), false);
    assert.equal(new Correlation({ x: 1 }, { x: 1 }, s).unchanged(), false, 'x has no schema');
  });
});
