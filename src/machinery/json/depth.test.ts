import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nestsDeeperThan } from './depth.js';

test('nestsDeeperThan counts objects and arrays, at any depth, without recursion', () => {
  let deep: unknown = 1;
  for (let i = 0; i < 200_000; i++) deep = i % 2 === 0 ? [deep] : { a: deep };
  assert.equal(nestsDeeperThan(deep, 199_999), true);
  assert.equal(nestsDeeperThan(deep, 200_000), false);
  assert.equal(nestsDeeperThan({ a: [1], b: { c: {} } }, 3), false);
  assert.equal(nestsDeeperThan({ a: [1], b: { c: {} } }, 2), true);
  assert.equal(nestsDeeperThan([1, 'a', [[null]], { b: 2 }], 3), false);
  assert.equal(nestsDeeperThan([1, 'a', [[null]], { b: 2 }], 2), true);
  assert.equal(nestsDeeperThan({}, 0), true);
  assert.equal(nestsDeeperThan('x', 0), false);
  assert.equal(nestsDeeperThan(null, 0), false);
});
