// sortedResources gives a resource list's entries in Go's sorted key order, whether they came
// sorted (and are returned without a sort) or not.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { sortedResources } from './resource-names.js';

it('lists the entries sorted by name, however they came', () => {
  assert.deepEqual(sortedResources(undefined), []);
  assert.deepEqual(sortedResources({ memory: '1Gi', cpu: '1' }), [
    ['cpu', '1'],
    ['memory', '1Gi'],
  ]);
  fc.assert(
    fc.property(fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 3 })), (list) => {
      const expected = Object.entries(list).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      assert.deepEqual(sortedResources(list), expected);
    }),
  );
});
