import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { encodeFieldsV1 } from '../fieldpath/fields-v1.js';
import type { JSONObject, JSONValue } from '../json.js';
import { podResolver, podSchema } from '../testing/pod-schema.js';
import { compareValues } from './compare.js';

const encoded = (lhs: JSONValue, rhs: JSONValue): string => {
  const cmp = compareValues(podResolver, podSchema, { lhs, rhs });
  return JSON.stringify([cmp.added, cmp.modified, cmp.removed].map(encodeFieldsV1));
};

/** The pod with every keyed or set list reversed: the same items, so the same comparison. */
function reversedLists(pod: JSONObject): JSONObject {
  const copy = JSON.parse(JSON.stringify(pod)) as {
    metadata: { finalizers?: string[] };
    spec: { containers?: { ports?: unknown[]; env?: unknown[] }[]; volumes?: unknown[] };
  };
  copy.metadata.finalizers?.reverse();
  copy.spec.volumes?.reverse();
  copy.spec.containers?.reverse();
  for (const c of copy.spec.containers ?? []) {
    c.ports?.reverse();
    c.env?.reverse();
  }
  return copy as unknown as JSONObject;
}

// Small alphabets, so that pairs of pods share most of their items. No list repeats an element:
// the items of a repeated element are compared as a list, in list order, so reversing changes that.
const name = fc.constantFrom('a', 'b', 'c');
const env = fc.record({ name, value: fc.constantFrom('1', '2') }, { requiredKeys: ['name'] });
const port = fc.record(
  {
    containerPort: fc.constantFrom(80, 81),
    protocol: fc.constantFrom('TCP', 'UDP'),
    name: fc.constantFrom('x', 'y'),
  },
  { requiredKeys: ['containerPort'] },
);
const container = fc.record(
  {
    name,
    image: fc.constantFrom('i', 'j'),
    args: fc.array(fc.constantFrom('--a', '--b'), { maxLength: 2 }),
    ports: fc.uniqueArray(port, {
      maxLength: 3,
      selector: (p) => `${p.containerPort}/${p.protocol ?? 'TCP'}`,
    }),
    env: fc.uniqueArray(env, { maxLength: 3, selector: (e) => e.name }),
  },
  { requiredKeys: ['name'] },
);
const pod = fc.record({
  metadata: fc.record({
    name: fc.constant('p'),
    finalizers: fc.uniqueArray(fc.constantFrom('x', 'y', 'z'), { maxLength: 3 }),
  }),
  spec: fc.record({
    containers: fc.uniqueArray(container, { maxLength: 3, selector: (c) => c.name }),
    volumes: fc.uniqueArray(fc.record({ name, emptyDir: fc.constant({}) }), {
      maxLength: 2,
      selector: (v) => v.name,
    }),
  }),
}) as fc.Arbitrary<JSONObject>;

describe('compareValues', () => {
  it('pairs list items by element, wherever they stand: in place or reordered, the same changes', () => {
    // The first pair has its lists in the same order (items compared in place when they pair up);
    // the second has the right side's keyed and set lists reversed (items found by index).
    const samePod = pod.chain((lhs) =>
      fc.tuple(
        fc.constant(lhs),
        fc.oneof(
          fc.constant(JSON.parse(JSON.stringify(lhs)) as JSONObject),
          // The same items in the same places, some of their values changed.
          fc.constant(
            JSON.parse(JSON.stringify(lhs).replaceAll('"1"', '"2"').replaceAll('"i"', '"j"')) as JSONObject,
          ),
          pod,
        ),
      ),
    );
    fc.assert(
      fc.property(samePod, ([lhs, rhs]) => {
        assert.equal(encoded(lhs, rhs), encoded(lhs, reversedLists(rhs)));
      }),
      { numRuns: 1500 },
    );
  });

  it('finds a changed item of a list whose items stand in place', () => {
    const lhs = { spec: { containers: [{ name: 'a', image: 'i', env: [{ name: 'A', value: '1' }] }] } };
    const rhs = { spec: { containers: [{ name: 'a', image: 'i', env: [{ name: 'A', value: '2' }] }] } };
    const cmp = compareValues(podResolver, podSchema, { lhs, rhs });
    assert.deepEqual(encodeFieldsV1(cmp.modified), {
      'f:spec': {
        'f:containers': { 'k:{"name":"a"}': { 'f:env': { 'k:{"name":"A"}': { 'f:value': {} } } } },
      },
    });
    assert.ok(cmp.added.empty() && cmp.removed.empty());
  });
});
