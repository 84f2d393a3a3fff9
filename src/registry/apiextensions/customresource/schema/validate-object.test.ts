import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { validateCustomResourceObject } from './validate-object.js';

const texts = (obj: Record<string, unknown>, s: JSONSchemaProps): string[] =>
  validateCustomResourceObject(obj, s).map((e) => e.error());

const spec = (properties: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: 'object',
  properties: { spec: { type: 'object', properties, ...extra } },
});

describe('validateCustomResourceObject', () => {
  it('accepts a valid object', () => {
    const s = spec(
      { replicas: { type: 'integer', minimum: 0 }, name: { type: 'string' } },
      { required: ['name'] },
    );
    assert.deepEqual(texts({ spec: { replicas: 0, name: '' } }, s), []);
  });

  it('reports type mismatches with the data type as value', () => {
    const s = spec({
      replicas: { type: 'integer' },
      name: { type: 'string' },
      o: { type: 'object' },
      l: { type: 'array' },
    });
    assert.deepEqual(texts({ spec: { replicas: 'string', name: 5, o: [1], l: { a: 1 } } }, s), [
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
      'spec.name: Invalid value: "integer": spec.name in body must be of type string: "integer"',
      'spec.o: Invalid value: "array": spec.o in body must be of type object: "array"',
      'spec.l: Invalid value: "object": spec.l in body must be of type array: "object"',
    ]);
    assert.deepEqual(texts({ spec: 'x' }, s), [
      'spec: Invalid value: "string": spec in body must be of type object: "string"',
    ]);
    assert.deepEqual(texts({ spec: { replicas: 1.5 } }, s), [
      'spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"',
    ]);
  });

  it('rejects null unless nullable', () => {
    const s = spec({ a: { type: 'string' }, b: { type: 'string', nullable: true } });
    assert.deepEqual(texts({ spec: { a: null, b: null } }, s), [
      'spec.a: Invalid value: "null": spec.a in body must be of type string: "null"',
    ]);
  });

  it('handles int-or-string', () => {
    const s = spec({
      port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
    });
    assert.deepEqual(texts({ spec: { port: 80 } }, s), []);
    assert.deepEqual(texts({ spec: { port: 'http' } }, s), []);
    const bad = texts({ spec: { port: true } }, s);
    assert.equal(
      bad[0],
      'spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
    );
    assert.ok(
      bad.includes('<nil>: Invalid value: "": "spec.port" must validate at least one schema (anyOf)'),
    );
  });

  it('reports enum, required, string, number and array constraints with kube texts', () => {
    const s = spec(
      {
        size: { type: 'string', enum: ['small', 'large'] },
        n: { type: 'integer', enum: [1, 2] },
        name: { type: 'string', minLength: 3, maxLength: 5, pattern: '^[a-z]+$' },
        short: { type: 'string', minLength: 3 },
        code: { type: 'string', pattern: '^[a-z]+$' },
        replicas: { type: 'integer', minimum: 1, maximum: 10, multipleOf: 2 },
        ratio: { type: 'number', maximum: 1.5, exclusiveMaximum: true },
        low: { type: 'integer', minimum: 0, exclusiveMinimum: true },
        tags: { type: 'array', minItems: 2, maxItems: 3, items: { type: 'string' } },
        more: { type: 'array', maxItems: 1 },
        uniq: { type: 'array', uniqueItems: true },
      },
      { required: ['must'] },
    );
    const obj = {
      spec: {
        size: 'huge',
        n: 3,
        name: 'toolong',
        short: 'ab',
        code: 'ABC',
        replicas: 11,
        ratio: 1.5,
        low: 0,
        tags: ['a'],
        more: [1, 2],
        uniq: [{ a: 1 }, { a: 1 }],
      },
    };
    assert.deepEqual(texts(obj, s), [
      'spec.size: Unsupported value: "huge": supported values: "small", "large"',
      'spec.n: Unsupported value: 3: supported values: "1", "2"',
      'spec.name: Too long: value is too long',
      'spec.short: Invalid value: "ab": spec.short in body should be at least 3 chars long',
      'spec.code: Invalid value: "ABC": spec.code in body should match \'^[a-z]+$\'',
      'spec.replicas: Invalid value: 11: spec.replicas in body should be a multiple of 2',
      'spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10',
      'spec.ratio: Invalid value: 1.5: spec.ratio in body should be less than 1.5',
      'spec.low: Invalid value: 0: spec.low in body should be greater than 0',
      'spec.tags: Invalid value: 1: spec.tags in body should have at least 2 items',
      'spec.more: Too many: 2: has too many items',
      'spec.uniq: Invalid value: "": spec.uniq in body shouldn\'t contain duplicates',
      'spec.must: Required value',
    ]);
  });

  it('validates formats kube keeps and ignores stripped ones', () => {
    const s = spec({
      when: { type: 'string', format: 'date-time' },
      day: { type: 'string', format: 'date' },
      id: { type: 'string', format: 'uuid' },
      data: { type: 'string', format: 'byte' },
      n: { type: 'integer', format: 'int32' },
    });
    assert.deepEqual(
      texts(
        {
          spec: {
            when: '2024-01-02T03:04:05Z',
            day: '2024-02-29',
            id: 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11',
            data: 'aGk=',
            n: 5e9,
          },
        },
        s,
      ),
      [],
    );
    assert.deepEqual(texts({ spec: { when: 'yesterday', day: '2023-02-29', id: 'x', data: '***' } }, s), [
      'spec.when: Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"',
      'spec.day: Invalid value: "2023-02-29": spec.day in body must be of type date: "2023-02-29"',
      'spec.id: Invalid value: "x": spec.id in body must be of type uuid: "x"',
      'spec.data: Invalid value: "***": spec.data in body must be of type byte: "***"',
    ]);
  });

  it('validates additionalProperties values and object property counts', () => {
    const s = spec({
      m: { type: 'object', additionalProperties: { type: 'integer' }, maxProperties: 3 },
      few: { type: 'object', minProperties: 1 },
      many: { type: 'object', maxProperties: 1 },
    });
    assert.deepEqual(texts({ spec: { m: { a: 1, b: 'x' }, few: {}, many: { a: 1, b: 2 } } }, s), [
      'spec.m.b: Invalid value: "string": spec.m.b in body must be of type integer: "string"',
      'spec.few: Invalid value: 1: spec.few in body should have at least 1 properties',
      'spec.many: Too many: 1: has too many items',
    ]);
  });

  it('reports allOf, oneOf and not failures', () => {
    const s = spec({
      a: { allOf: [{ minimum: 5 }, { maximum: 1 }] },
      o: { oneOf: [{ type: 'integer' }, { minimum: 0 }] },
      n: { not: { type: 'string' } },
    });
    const out = texts({ spec: { a: 3, o: 1, n: 'x' } }, s);
    assert.deepEqual(out, [
      'spec.a: Invalid value: 3: spec.a in body should be greater than or equal to 5',
      'spec.a: Invalid value: 3: spec.a in body should be less than or equal to 1',
      '<nil>: Invalid value: "": "spec.a" must validate all the schemas (allOf). None validated',
      '<nil>: Invalid value: "": "spec.o" must validate one and only one schema (oneOf). Found 2 valid alternatives',
      '<nil>: Invalid value: "": "spec.n" must not validate the schema (not)',
    ]);
  });

  it('validates deeply nested array items with indexed paths', () => {
    const s = spec({
      groups: {
        type: 'array',
        items: {
          type: 'object',
          required: ['name'],
          properties: { ports: { type: 'array', items: { type: 'integer', maximum: 10 } } },
        },
      },
    });
    assert.deepEqual(texts({ spec: { groups: [{ name: 'a', ports: [1, 20] }, { ports: 'x' }, 7] } }, s), [
      'spec.groups[0].ports[1]: Invalid value: 20: spec.groups[0].ports[1] in body should be less than or equal to 10',
      'spec.groups[1].ports: Invalid value: "string": spec.groups[1].ports in body must be of type array: "string"',
      'spec.groups[1].name: Required value',
      'spec.groups[2]: Invalid value: "integer": spec.groups[2] in body must be of type object: "integer"',
    ]);
  });

  it('reports Duplicate value for list-type set and map', () => {
    const s = spec({
      set: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
      map: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: { type: 'object', properties: { name: { type: 'string' } } },
      },
      multi: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['a', 'b'],
        items: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } } },
      },
      bad: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'] },
    });
    const obj = {
      spec: {
        set: ['a', 'b', 'a', 'a'],
        map: [{ name: 'x' }, { name: 'y' }, { name: 'x' }],
        multi: [
          { a: 'p', b: 1 },
          { b: 1, a: 'p' },
        ],
        bad: [{ k: 1 }, 'str'],
      },
    };
    assert.deepEqual(texts(obj, s), [
      'spec.set[2]: Duplicate value: "a"',
      'spec.map[2]: Duplicate value: {"name":"x"}',
      'spec.multi[1]: Duplicate value: {"a":"p","b":1}',
      'spec.bad[1]: Invalid value: "str": must be an object for an array of list-type map',
    ]);
  });

  it('finds a set list deep in one branch, and none where the schema declares none', () => {
    const s = spec({
      plain: { type: 'array', items: { type: 'string' } },
      byName: {
        type: 'object',
        additionalProperties: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
            },
          },
        },
      },
    });
    const obj = { spec: { plain: ['a', 'a'], byName: { x: [{ tags: ['t'] }, { tags: ['u', 'u'] }] } } };
    assert.deepEqual(texts(obj, s), ['spec.byName[x][1].tags[1]: Duplicate value: "u"']);
    const none = spec({ plain: { type: 'array', items: { type: 'string' } } });
    assert.deepEqual(texts({ spec: { plain: ['a', 'a'] } }, none), []);
  });
});
