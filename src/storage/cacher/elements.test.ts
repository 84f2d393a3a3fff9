// An update's element shares what did not change with the element it replaces (attributes, index
// values, key), so that the events the window keeps hold no copies of their own.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pod, type TestObject } from '../testing/test-object.js';
import { apiObjectVersioner } from '../versioner.js';
import { elementKeyOf, elementOf, type ElementRules } from './elements.js';
import { podAttrs, podKey } from './testing/pods.js';
import type { StoreElement } from './watch-cache-event.js';

const rules: ElementRules<TestObject> = {
  keyFunc: podKey,
  getAttrsFunc: podAttrs,
  indexValues: (obj) => ({ 'spec.nodeName': [obj.spec?.nodeName ?? ''] }),
  versioner: apiObjectVersioner,
};

function version(
  rv: number,
  extras: { labels?: Record<string, string>; nodeName?: string; note?: string },
): TestObject {
  const obj = pod('ns', 'p', {
    ...(extras.labels === undefined ? {} : { labels: extras.labels }),
    ...(extras.nodeName === undefined ? {} : { nodeName: extras.nodeName }),
    annotations: { note: extras.note ?? '' },
  });
  obj.metadata.resourceVersion = String(rv);
  return obj;
}

function update(known: StoreElement<TestObject>, obj: TestObject): StoreElement<TestObject> {
  return elementOf(rules, { object: obj }, { key: elementKeyOf(rules, obj), known });
}

describe("an update's element", () => {
  const first = elementOf(rules, { object: version(1, { labels: { app: 'a' }, nodeName: 'n1' }) });

  it('shares the attributes, index values and key that did not change', () => {
    const next = update(first, version(2, { labels: { app: 'a' }, nodeName: 'n1', note: 'changed' }));
    assert.equal(next.resourceVersion, 2);
    assert.notEqual(next.served, first.served);
    assert.equal(next.attrs.labels, first.attrs.labels);
    assert.equal(next.attrs.fields, first.attrs.fields);
    assert.equal(next.indexValues, first.indexValues);
    assert.equal(next.key, first.key);
  });

  it('has attributes of its own when a label changes, and leaves the earlier ones as they were', () => {
    const next = update(first, version(2, { labels: { app: 'b' }, nodeName: 'n1' }));
    assert.notEqual(next.attrs.labels, first.attrs.labels);
    assert.deepEqual(next.attrs.labels, { app: 'b' });
    assert.deepEqual(first.attrs.labels, { app: 'a' });
    assert.equal(next.indexValues, first.indexValues);
  });

  it('has attributes of its own when a label is added or removed', () => {
    const added = update(first, version(2, { labels: { app: 'a', tier: 't' }, nodeName: 'n1' }));
    assert.deepEqual(added.attrs.labels, { app: 'a', tier: 't' });
    const removed = update(added, version(3, { nodeName: 'n1' }));
    assert.deepEqual(removed.attrs.labels, {});
    assert.notEqual(removed.attrs.labels, added.attrs.labels);
  });

  it('has fields and index values of its own when an indexed field changes', () => {
    const next = update(first, version(2, { labels: { app: 'a' }, nodeName: 'n2' }));
    assert.notEqual(next.attrs.fields, first.attrs.fields);
    assert.equal(next.attrs.fields['spec.nodeName'], 'n2');
    assert.deepEqual(next.indexValues, { 'spec.nodeName': ['n2'] });
    assert.deepEqual(first.indexValues, { 'spec.nodeName': ['n1'] });
  });

  it('copies the labels it keeps rather than holding the written object', () => {
    const obj = version(1, { labels: { app: 'a' } });
    const el = elementOf(rules, { object: obj });
    (obj.metadata.labels as Record<string, string>)['app'] = 'mutated';
    assert.deepEqual(el.attrs.labels, { app: 'a' });
  });
});
