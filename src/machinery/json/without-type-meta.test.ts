import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { objectWithoutTypeMeta, withoutTypeMeta } from './without-type-meta.js';

const strip = (json: string): string => Buffer.concat(withoutTypeMeta(Buffer.from(json))).toString();

describe('withoutTypeMeta', () => {
  it('drops the top-level kind and apiVersion wherever they are, and nothing nested', () => {
    const cases: [string, string][] = [
      [
        '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a"},"spec":{}}',
        '{"metadata":{"name":"a"},"spec":{}}',
      ],
      [
        '{"data":{"x":"y"},"metadata":{"name":"a"},"apiVersion":"v1","kind":"ConfigMap"}',
        '{"data":{"x":"y"},"metadata":{"name":"a"}}',
      ],
      ['{"apiVersion":"v1","data":{},"kind":"ConfigMap"}', '{"data":{}}'],
      [
        '{"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet"}]},"kind":"Pod","spec":{},"apiVersion":"v1"}',
        '{"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet"}]},"spec":{}}',
      ],
      [
        '{"metadata":{"kind":"x"},"spec":{"apiVersion":"y"}}',
        '{"metadata":{"kind":"x"},"spec":{"apiVersion":"y"}}',
      ],
      ['{"kind":"A","apiVersion":"v1"}', '{}'],
      ['{ "kind" : "A" , "b" : 1 }', '{"b" : 1 }'],
    ];
    for (const [input, want] of cases) {
      assert.equal(strip(input), want, input);
      assert.deepEqual(JSON.parse(strip(input)), JSON.parse(want));
    }
  });

  it('copies an object without them, leaving the input untouched', () => {
    const obj = { kind: 'Pod', apiVersion: 'v1', metadata: { name: 'a' } };
    assert.deepEqual(objectWithoutTypeMeta(obj), { metadata: { name: 'a' } });
    assert.equal(obj.kind, 'Pod');
  });
});
