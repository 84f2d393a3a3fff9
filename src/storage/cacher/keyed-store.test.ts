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
});
