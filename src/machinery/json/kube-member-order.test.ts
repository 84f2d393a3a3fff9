import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inKubeMemberOrder } from './kube-member-order.js';

describe('inKubeMemberOrder', () => {
  it('puts kind, apiVersion and metadata first, ObjectMeta in Go order, the rest as it was', () => {
    const obj = {
      data: { x: 'y' },
      metadata: {
        labels: { a: 'b' },
        name: 'a',
        namespace: 'default',
        managedFields: [],
        creationTimestamp: 't',
        uid: 'u',
        extra: 1,
      },
      apiVersion: 'v1',
      kind: 'ConfigMap',
      immutable: true,
    };
    const ordered = inKubeMemberOrder(obj);
    assert.equal(
      JSON.stringify(ordered),
      '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","namespace":"default","uid":"u","creationTimestamp":"t","labels":{"a":"b"},"managedFields":[],"extra":1},"data":{"x":"y"},"immutable":true}',
    );
    assert.deepEqual(Object.keys(obj), ['data', 'metadata', 'apiVersion', 'kind', 'immutable']);
  });

  it('leaves objects without type or metadata, and non-objects, alone', () => {
    assert.equal(JSON.stringify(inKubeMemberOrder({ b: 1, a: 2 })), '{"b":1,"a":2}');
    assert.equal(inKubeMemberOrder(null), null);
  });
});
