import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { Correlation } from '../schema/correlation.js';
import { compileCustomResourceRules } from './compile.js';

type Obj = Record<string, unknown>;

async function updater(schema: JSONSchemaProps): Promise<(obj: Obj, old: Obj) => [string[], string[]]> {
  const { validator } = await compileCustomResourceRules(schema);
  assert.ok(validator !== undefined);
  return (obj, old) => {
    const warnings: string[] = [];
    const ratchet = { correlation: new Correlation(obj, old, schema), warn: (m: string) => warnings.push(m) };
    return [validator.validate(obj, old, ratchet).map((e) => e.error()), warnings];
  };
}

const item: JSONSchemaProps = {
  type: 'object',
  properties: { name: { type: 'string' }, port: { type: 'integer' } },
  'x-kubernetes-validations': [{ rule: 'self.port < 100', message: 'port too big' }],
};

const schema = (listType: string): JSONSchemaProps => ({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        name: {
          type: 'string',
          'x-kubernetes-validations': [{ rule: 'self.size() < 4', message: 'too long' }],
        },
        level: {
          type: 'integer',
          'x-kubernetes-validations': [{ rule: 'self >= oldSelf', message: 'no lowering' }],
        },
        other: { type: 'string' },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': listType,
          ...(listType === 'map' ? { 'x-kubernetes-list-map-keys': ['name'] } : {}),
          items: item,
        },
      },
    },
  },
});

describe('rule ratcheting (CRDValidationRatcheting)', () => {
  it('warns instead of failing for a rule at an unchanged value', async () => {
    const update = await updater(schema('map'));
    const old = { spec: { name: 'toolong', other: 'a' } };
    assert.deepEqual(update({ spec: { name: 'toolong', other: 'b' } }, old), [
      [],
      ['spec.name: Invalid value: "string": too long'],
    ]);
    assert.deepEqual(update({ spec: { name: 'longer', other: 'a' } }, old), [
      ['spec.name: Invalid value: "string": too long'],
      [],
    ]);
    // Without a ratchet (a create), the unchanged value's failure is an error.
    const { validator } = await compileCustomResourceRules(schema('map'));
    assert.deepEqual(
      validator?.validate(old, old).map((e) => e.error()),
      ['spec.name: Invalid value: "string": too long'],
    );
  });

  it('never ratchets a transition rule', async () => {
    const update = await updater(schema('map'));
    const old = { spec: { level: 5, name: 'toolong' } };
    // The unchanged name's rule ratchets in the same update; the transition rule does not.
    assert.deepEqual(update({ spec: { level: 4, name: 'toolong' } }, old), [
      ['spec.level: Invalid value: "integer": no lowering'],
      ['spec.name: Invalid value: "string": too long'],
    ]);
  });

  it('ratchets a list-type=map item by key and an atomic list only as a whole', async () => {
    const ports = [
      { name: 'a', port: 500 },
      { name: 'b', port: 1 },
    ];
    const changed = [
      { name: 'b', port: 2 },
      { name: 'a', port: 500 },
    ];
    const mapList = await updater(schema('map'));
    assert.deepEqual(mapList({ spec: { ports: changed } }, { spec: { ports } })[0], []);
    const atomic = await updater(schema('atomic'));
    assert.deepEqual(atomic({ spec: { ports: changed } }, { spec: { ports } })[0], [
      'spec.ports[1]: Invalid value: "object": port too big',
    ]);
    assert.deepEqual(atomic({ spec: { ports, other: 'x' } }, { spec: { ports } })[0], []);
  });
});
