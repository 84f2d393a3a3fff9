import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { labelsEqual, semanticEqual } from './semantic-equal.js';

describe('semanticEqual', () => {
  it('takes a missing field, null, [] and {} as the same, as Go takes nil and empty', () => {
    assert.ok(semanticEqual({ a: [], b: null }, { c: {} }));
    assert.ok(semanticEqual({ spec: { taints: [] } }, { spec: {} }));
  });
  it('tells apart values, list orders and lengths', () => {
    assert.ok(!semanticEqual({ a: 1 }, { a: 2 }));
    assert.ok(!semanticEqual({ a: [1, 2] }, { a: [2, 1] }));
    assert.ok(!semanticEqual({ a: [1] }, { a: [1, 1] }));
    assert.ok(!semanticEqual({ a: 'x' }, {}));
  });
});

describe('labelsEqual', () => {
  it('is labels.Equals: no labels and an empty set alike, every key and value the same', () => {
    assert.ok(labelsEqual(undefined, {}));
    assert.ok(labelsEqual({ a: '1' }, { a: '1' }));
    assert.ok(!labelsEqual({ a: '1' }, { a: '2' }));
    assert.ok(!labelsEqual({ a: '1' }, { b: '1' }));
  });
});
