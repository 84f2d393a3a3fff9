import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keyElement, pathElementKey, type PathElement } from '../fieldpath/path-element.js';
import type { JSONValue } from '../json.js';
import { ItemIndex, itemKey } from './item-index.js';
import type { ListNode } from './type-node.js';

const keyed = (...values: (string | number | boolean | null)[]): PathElement =>
  keyElement(values.map((value, i) => ({ name: `k${i}`, value })));
const value = (v: JSONValue): PathElement => ({ kind: 'value', value: v });

// The elements of three lists (one kind of element and one set of key fields in each), which
// render to different FieldsV1 keys within their list.
const lists: PathElement[][] = [
  [keyed('a'), keyed('<a&b>'), keyed(1), keyed('1'), keyed(true), keyed(null)],
  [keyed(80, 'TCP'), keyed(80, 'UDP'), keyed('80', 'TCP'), keyed(443, 'TCP')],
  [value('x'), value(1), value({ a: 1, b: 2 }), value({ b: 2, a: 1 }), value([1, '1']), value(null)],
];

describe('ItemIndex and itemKey', () => {
  it('tell the items of a list apart exactly as their FieldsV1 keys do', () => {
    for (const list of lists) {
      const index = new ItemIndex<number>();
      list.forEach((pe, i) => {
        index.set(pe, i);
      });
      list.forEach((pe, i) => {
        assert.equal(index.get(pe), i, pathElementKey(pe));
      });
    }
    const index = new ItemIndex<number>();
    index.set(keyed(0), 1);
    assert.equal(index.get(keyed(-0)), 1, 'goJson writes -0 as 0');
  });

  it('itemKey renders each element as pathElementKey does, and again from its memo', () => {
    for (const list of lists) {
      const node: ListNode = { kind: 'list', element: 'deduced', listType: 'map', keys: [] };
      for (let round = 0; round < 2; round++)
        for (const pe of list) assert.equal(itemKey(node, pe), pathElementKey(pe));
    }
  });
});
