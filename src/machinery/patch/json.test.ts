import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { jsonEqual } from './json.js';

describe('jsonEqual', () => {
  it('compares JSON values structurally, member order aside', () => {
    assert.ok(jsonEqual({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 }));
    assert.ok(!jsonEqual({ a: 1 }, { a: '1' }));
    assert.ok(!jsonEqual([1, 2], [2, 1]));
    assert.ok(!jsonEqual({ a: null }, {}));
  });

  it('takes a member set to undefined as absent, as JSON.stringify does', () => {
    assert.ok(jsonEqual({ a: 1, b: undefined }, { a: 1 }));
    assert.ok(jsonEqual({ a: 1 }, { a: 1, b: undefined }));
    assert.ok(!jsonEqual({ a: 1, b: undefined }, { a: 1, c: 2 }));
  });
});
