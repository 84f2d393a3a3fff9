import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeFieldsV1 } from '../fieldpath/fields-v1.js';
import type { Schema } from '../../../api/schema/types.js';
import type { JSONObject } from '../json.js';
import { podResolver, podSchema } from '../testing/pod-schema.js';
import { widgetResolver, widgetSchema } from '../testing/widget-schema.js';
import { ensureNamedFieldsAreMembers } from './named-fields.js';
import { NamedFieldSets, toFieldSet } from './to-field-set.js';
import type { SchemaResolver, TypeRef } from './type-node.js';

const cases: { name: string; resolver: SchemaResolver; ref: TypeRef; value: JSONObject }[] = [
  {
    name: 'a pod',
    resolver: podResolver,
    ref: podSchema,
    value: {
      metadata: { name: 'p', labels: { a: '1' }, finalizers: ['x', 'y'] },
      spec: {
        containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80 }], env: [] }],
        volumes: [{ name: 'v', emptyDir: {}, hostPath: { path: '/' } }],
        nodeSelector: { a: 'b' },
        extra: {},
      },
    },
  },
  {
    name: 'a custom resource',
    resolver: widgetResolver,
    ref: widgetSchema,
    value: {
      spec: {
        port: 1,
        free: { a: { b: [1] } },
        items: [{ name: 'n', weight: 1 }],
        byName: { one: { x: 'a' } },
        inner: { y: ['z'] },
      },
      status: { ready: null },
    },
  },
];

describe('toFieldSet', () => {
  for (const c of cases) {
    it(`with named, makes ensureNamedFieldsAreMembers's set in one walk: ${c.name}`, () => {
      const plain = toFieldSet(c.resolver, c.ref, c.value).set;
      const named = new NamedFieldSets(c.resolver, c.ref).of(c.value);
      const expected = ensureNamedFieldsAreMembers(c.resolver, c.ref, plain);
      assert.equal(JSON.stringify(encodeFieldsV1(named)), JSON.stringify(encodeFieldsV1(expected)));
      assert.notEqual(JSON.stringify(encodeFieldsV1(named)), JSON.stringify(encodeFieldsV1(plain)));
    });
  }

  it('NamedFieldSets gives a value that shares subtrees with one walked before the set it has alone', () => {
    const [pod] = cases;
    if (pod === undefined) throw new Error('no pod case');
    const sets = new NamedFieldSets(pod.resolver, pod.ref);
    const first = sets.of(pod.value);
    const spec = pod.value['spec'] as JSONObject;
    const shared: JSONObject = { spec: { containers: spec['containers'] ?? [], volumes: [] } };
    const alone = new NamedFieldSets(pod.resolver, pod.ref).of(shared);
    assert.equal(JSON.stringify(encodeFieldsV1(sets.of(shared))), JSON.stringify(encodeFieldsV1(alone)));
    assert.equal(JSON.stringify(encodeFieldsV1(sets.of(pod.value))), JSON.stringify(encodeFieldsV1(first)));
  });

  it('reports undeclared fields, bad items and duplicates with their paths', () => {
    const { errors } = toFieldSet(podResolver, podSchema, {
      spec: { bogus: 1, containers: [{ image: 'x' }, { name: 'a' }, { name: 'a' }] },
      metadata: { finalizers: ['f', 'f'] },
    });
    assert.deepEqual(errors, [
      '.spec.bogus: field not declared in schema',
      `.spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn't have default value)`,
      '.spec.containers: duplicate entries for key [name="a"]',
      '.metadata.finalizers: duplicate entries for key [="f"]',
    ]);
  });

  it('takes a list-map key named like an Object.prototype member from the item only', () => {
    const root: TypeRef = {
      type: 'object',
      properties: {
        list: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['constructor'],
          items: JSON.parse(
            '{"type":"object","properties":{"constructor":{"type":"string"},"v":{"type":"string"}}}',
          ) as Schema,
        },
      },
    };
    const resolver: SchemaResolver = { resolve: (schema) => schema };
    const value = JSON.parse('{"list":[{"v":"a"},{"constructor":"c","v":"b"}]}') as JSONObject;
    const { set, errors } = toFieldSet(resolver, root, value);
    assert.deepEqual(errors, [
      `.list: element 0: associative list with keys has an element that omits key field "constructor" (and doesn't have default value)`,
    ]);
    assert.match(JSON.stringify(encodeFieldsV1(set)), /"k:\{\\"constructor\\":\\"c\\"\}"/);
  });
});
