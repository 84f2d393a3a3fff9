import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goJSONText } from '../../machinery/json/go-json-text.js';
import { inGoOrder } from './go-order.js';

const text = (v: unknown): string => goJSONText(inGoOrder(v));

describe('inGoOrder', () => {
  it('orders a list and its ListMeta, leaving empty members out', () => {
    const list = {
      items: [],
      metadata: { continue: '', resourceVersion: '7' },
      apiVersion: 'v1',
      kind: 'PodList',
    };
    assert.equal(
      text(list),
      '{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"7"},"items":[]}',
    );
  });

  it('orders a Table', () => {
    const table = {
      rows: [],
      columnDefinitions: [],
      metadata: { remainingItemCount: 0, resourceVersion: '3' },
      apiVersion: 'meta.k8s.io/v1',
      kind: 'Table',
    };
    assert.equal(
      text(table),
      '{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"3","remainingItemCount":0},' +
        '"columnDefinitions":[],"rows":[]}',
    );
  });

  it('leaves an object whose kind ends in List but whose metadata is an ObjectMeta as it is', () => {
    const shopping = {
      apiVersion: 'shop.example.com/v1',
      kind: 'ShoppingList',
      metadata: { name: 'n' },
      items: [1],
    };
    assert.equal(inGoOrder(shopping), shopping);
  });
});
