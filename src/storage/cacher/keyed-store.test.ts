// A store's state is a copy: a store made from it, and the store it came from, change apart.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { KeyedStore, type IndexFunc } from './keyed-store.js';
import type { StoreElement } from './watch-cache-event.js';

const byNamespace: IndexFunc<KubeObject> = (el) => [el.attrs.fields['metadata.namespace'] ?? ''];
const indexFuncs = new Map([['metadata.namespace', byNamespace]]);

function element(namespace: string, name: string): StoreElement {
  return {
    key: `/pods/${namespace}/${name}`,
    resourceVersion: 1,
    served: { json: Buffer.from('{}'), rvStart: 0, rvEnd: 0 },
    attrs: { labels: {}, fields: { 'metadata.namespace': namespace, 'metadata.name': name } },
    indexValues: {},
  };
}

const keys = (store: KeyedStore<KubeObject>): string[] => [...store.range('/pods/')].map((el) => el.key);
const inIndex = (store: KeyedStore<KubeObject>, ns: string): string[] =>
  store.byIndex('metadata.namespace', ns).map((el) => el.key);

describe('KeyedStore state and copyFrom', () => {
  it('copies keys, order and indexes; later changes to either store stay in it', () => {
    const origin = new KeyedStore<KubeObject>(indexFuncs);
    for (const [ns, name] of [
      ['b', 'two'],
      ['a', 'one'],
      ['a', 'three'],
    ] as const)
      origin.put(element(ns, name));
    const state = origin.state();
    const copy = new KeyedStore<KubeObject>(indexFuncs);
    copy.copyFrom(state);
    assert.deepEqual(keys(copy), ['/pods/a/one', '/pods/a/three', '/pods/b/two']);
    assert.deepEqual(inIndex(copy, 'a'), ['/pods/a/one', '/pods/a/three']);

    origin.delete('/pods/a/one');
    origin.put(element('b', 'four'));
    copy.put(element('a', 'five'));
    copy.delete('/pods/b/two');
    assert.deepEqual(keys(origin), ['/pods/a/three', '/pods/b/four', '/pods/b/two']);
    assert.deepEqual(inIndex(origin, 'a'), ['/pods/a/three']);
    assert.deepEqual(inIndex(origin, 'b'), ['/pods/b/four', '/pods/b/two']);
    assert.deepEqual(keys(copy), ['/pods/a/five', '/pods/a/one', '/pods/a/three']);
    assert.deepEqual(inIndex(copy, 'a'), ['/pods/a/five', '/pods/a/one', '/pods/a/three']);
    assert.equal(copy.indexSize('metadata.namespace', 'b'), 0);
    // The state taken first is untouched by both, and a second copy from it starts over.
    const again = new KeyedStore<KubeObject>(indexFuncs);
    again.copyFrom(state);
    assert.deepEqual(keys(again), ['/pods/a/one', '/pods/a/three', '/pods/b/two']);
    assert.equal(again.size, 3);
  });

  it('indexes the elements itself when the state has other indexes', () => {
    const plain = new KeyedStore<KubeObject>(new Map());
    plain.put(element('a', 'one'));
    const indexed = new KeyedStore<KubeObject>(indexFuncs);
    indexed.copyFrom(plain.state());
    assert.deepEqual(inIndex(indexed, 'a'), ['/pods/a/one']);
  });

  it('keeps an index value with one key, two, three and back, in a state apart from later changes', () => {
    const store = new KeyedStore<KubeObject>(indexFuncs);
    const sizes = (): number[] => ['a', 'b'].map((ns) => store.indexSize('metadata.namespace', ns));
    store.put(element('a', 'one'));
    assert.deepEqual(inIndex(store, 'a'), ['/pods/a/one']);
    store.put(element('a', 'two'));
    const two = store.state();
    store.put(element('a', 'three'));
    store.put(element('b', 'four'));
    assert.deepEqual(inIndex(store, 'a'), ['/pods/a/one', '/pods/a/three', '/pods/a/two']);
    assert.deepEqual(sizes(), [3, 1]);
    store.delete('/pods/a/one');
    store.delete('/pods/a/three');
    assert.deepEqual(inIndex(store, 'a'), ['/pods/a/two']);
    store.delete('/pods/a/two');
    store.delete('/pods/b/four');
    assert.deepEqual(sizes(), [0, 0]);
    assert.deepEqual(inIndex(store, 'a'), []);
    // The state taken at two keys still has them.
    const copy = new KeyedStore<KubeObject>(indexFuncs);
    copy.copyFrom(two);
    assert.deepEqual(inIndex(copy, 'a'), ['/pods/a/one', '/pods/a/two']);
    copy.delete('/pods/a/one');
    assert.deepEqual(inIndex(copy, 'a'), ['/pods/a/two']);
  });

  it('moves an element between index values when its attributes change, and keeps it when they do not', () => {
    const store = new KeyedStore<KubeObject>(indexFuncs);
    const first = element('a', 'one');
    store.put(first);
    // The same attributes object (an update that left them alone): the element stays where it is.
    store.put({ ...first, resourceVersion: 2 });
    assert.deepEqual(inIndex(store, 'a'), ['/pods/a/one']);
    // Other attributes at the same key: out of the old value, into the new one.
    const moved = element('a', 'one');
    store.put({
      ...moved,
      attrs: { ...moved.attrs, fields: { ...moved.attrs.fields, 'metadata.namespace': 'b' } },
    });
    assert.deepEqual([inIndex(store, 'a'), inIndex(store, 'b')], [[], ['/pods/a/one']]);
  });
});
