// mergeValues: the configuration wins on leaves and joins maps and keyed lists; what it leaves as
// it was stays the live value itself.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { JSONObject, JSONValue } from '../json.js';
import { podArbitrary } from '../testing/pod-arbitrary.js';
import { podResolver, podSchema } from '../testing/pod-schema.js';
import { compareValues } from './compare.js';
import { mergeValues } from './merge.js';

const merge = (lhs: JSONValue, rhs: JSONValue): JSONValue => {
  const out = mergeValues(podResolver, podSchema, { lhs, rhs });
  assert.ok(out !== undefined);
  return out;
};
const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('mergeValues', () => {
  it('holds every value of the configuration and keeps every value of the live object', () => {
    // Configurations: the live pod again, with some values changed, or another pod.
    const changed = (p: JSONObject): JSONObject =>
      JSON.parse(JSON.stringify(p).replaceAll('"1"', '"2"').replaceAll('"i"', '"j"')) as JSONObject;
    const pair = podArbitrary.chain((live) =>
      fc.tuple(
        fc.constant(live),
        fc.oneof(fc.constant(copy(live)), fc.constant(changed(live)), podArbitrary),
      ),
    );
    fc.assert(
      fc.property(pair, ([live, config]) => {
        const out = merge(live, config);
        // Nothing the configuration sets is missing or other in the merge...
        const toConfig = compareValues(podResolver, podSchema, { lhs: out, rhs: config });
        assert.ok(toConfig.added.empty() && toConfig.modified.empty(), JSON.stringify(out));
        // ...and nothing the live object holds is gone from it.
        assert.ok(compareValues(podResolver, podSchema, { lhs: live, rhs: out }).removed.empty());
      }),
      { numRuns: 1000 },
    );
  });

  it('gives back the live value itself wherever the configuration changed nothing', () => {
    const live = {
      metadata: { name: 'p', labels: { a: '1' } },
      spec: {
        containers: [
          { name: 'a', image: 'i', ports: [{ containerPort: 80, protocol: 'TCP' }], env: [] },
          { name: 'b', image: 'j' },
        ],
        volumes: [{ name: 'v', emptyDir: {} }],
      },
    };
    const same = { metadata: { name: 'p' }, spec: { containers: [{ name: 'a', image: 'i', env: [] }] } };
    assert.equal(merge(live, same), live);
    const image = { metadata: { name: 'p' }, spec: { containers: [{ name: 'b', image: 'k' }] } };
    const out = merge(live, image) as typeof live;
    assert.notEqual(out, live);
    assert.deepEqual(out.spec.containers[1], { name: 'b', image: 'k' });
    assert.equal(out.metadata, live.metadata);
    assert.equal(out.spec.volumes, live.spec.volumes);
    assert.equal(out.spec.containers[0], live.spec.containers[0]);
    assert.deepEqual(live.spec.containers[1], { name: 'b', image: 'j' });
  });
});
