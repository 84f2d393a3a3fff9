import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { compileCustomResourceRules } from './compile.js';

// A spec holding a set list and a map list, immutable by a rule on the spec as a whole.
const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'spec is immutable' }],
      properties: {
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: {
            type: 'object',
            properties: { name: { type: 'string' }, port: { type: 'integer' } },
          },
        },
        order: { type: 'array', items: { type: 'string' } },
      },
    },
  },
};

const spec = (s: Record<string, unknown>): Record<string, unknown> => ({ spec: s });

describe('set and map lists in CEL rules', () => {
  it('compare without order inside the objects that hold them, as kube’s values do', async () => {
    const { errors, validator } = await compileCustomResourceRules(schema);
    assert.deepEqual(errors, []);
    assert.ok(validator !== undefined);
    const old = spec({
      tags: ['a', 'b'],
      ports: [
        { name: 'http', port: 80 },
        { name: 'https', port: 443 },
      ],
      order: ['x', 'y'],
    });
    const check = (next: Record<string, unknown>): string[] =>
      validator.validate(next, old).map((e) => e.error());
    const reordered = spec({
      tags: ['b', 'a'],
      ports: [
        { name: 'https', port: 443 },
        { name: 'http', port: 80 },
      ],
      order: ['x', 'y'],
    });
    assert.deepEqual(check(reordered), []);
    const immutable = ['spec: Invalid value: "object": spec is immutable'];
    // An atomic list keeps its order; a changed item or member is a change.
    assert.deepEqual(check(spec({ ...(reordered.spec as object), order: ['y', 'x'] })), immutable);
    assert.deepEqual(check(spec({ ...(reordered.spec as object), tags: ['b', 'c'] })), immutable);
    assert.deepEqual(
      check(
        spec({
          ...(reordered.spec as object),
          ports: [
            { name: 'https', port: 8443 },
            { name: 'http', port: 80 },
          ],
        }),
      ),
      immutable,
    );
  });
});
