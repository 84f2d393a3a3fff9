import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { encodeFieldsV1 } from '../fieldpath/fields-v1.js';
import type { JSONObject, JSONValue } from '../json.js';
import { podArbitrary as pod } from '../testing/pod-arbitrary.js';
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

  it('takes a key named like an Object.prototype member as any other: added, removed or modified', () => {
    for (const k of ['constructor', 'toString', '__proto__']) {
      const o = (text: string): JSONValue => JSON.parse(text.replaceAll('K', k)) as JSONValue;
      const ordinary = (text: string): JSONValue => JSON.parse(text.replaceAll('K', 'k')) as JSONValue;
      const cases: [string, string][] = [
        ['{"metadata":{"labels":{}}}', '{"metadata":{"labels":{"K":"v"}}}'],
        ['{"metadata":{"labels":{"K":"v"}}}', '{"metadata":{"labels":{}}}'],
        ['{"metadata":{"labels":{"K":"v"}}}', '{"metadata":{"labels":{"K":"w"}}}'],
        ['{"x":{}}', '{"x":{"K":{"a":1}}}'],
        ['{"x":{"K":{"a":1}}}', '{"x":{}}'],
      ];
      for (const [lhs, rhs] of cases) {
        assert.equal(
          encoded(o(lhs), o(rhs)),
          encoded(ordinary(lhs), ordinary(rhs)).replaceAll('f:k', `f:${k}`),
          `${k}: ${lhs} to ${rhs}`,
        );
      }
    }
  });
});
