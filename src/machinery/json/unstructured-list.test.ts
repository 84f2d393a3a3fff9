import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asUnstructuredList, isUnstructuredListOrder, unstructuredListMeta } from './unstructured-list.js';

describe('UnstructuredList order', () => {
  it('sorts the members and the metadata, with continue always there', () => {
    const list = asUnstructuredList({
      kind: 'WidgetList',
      apiVersion: 'example.com/v1',
      metadata: { resourceVersion: '7' },
      items: [{ apiVersion: 'example.com/v1', kind: 'Widget' }],
    });
    assert.equal(
      JSON.stringify(list),
      '{"apiVersion":"example.com/v1","items":[{"apiVersion":"example.com/v1","kind":"Widget"}],' +
        '"kind":"WidgetList","metadata":{"continue":"","resourceVersion":"7"}}',
    );
    assert.ok(isUnstructuredListOrder(list));
    assert.ok(!isUnstructuredListOrder({ apiVersion: 'v1', kind: 'PodList', items: [] }));
    assert.deepEqual(
      Object.keys(unstructuredListMeta({ resourceVersion: '1', remainingItemCount: 3, continue: 'c' })),
      ['continue', 'remainingItemCount', 'resourceVersion'],
    );
  });
});
