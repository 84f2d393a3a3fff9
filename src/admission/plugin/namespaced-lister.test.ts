// NamespacedLister: the cache's list (or, over a store that can watch, its informer's state) when
// it has items; otherwise a live list, kept per namespace for the TTL and shared by lookups in
// flight together.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import type { Lister } from '../../registry/rest/capabilities.js';
import type { ListOptions } from '../../registry/rest/options.js';
import type { RequestContext } from '../../registry/rest/context.js';
import { countingStore, untilNames } from '../../registry/generic/testing/counting-store.js';
import { memoryRESTOptions } from '../../registry/generic/testing/memory-rest-options.js';
import { newWidgetStore, testContext, widget } from '../../registry/generic/testing/widgets.js';
import { NamespacedLister } from './namespaced-lister.js';

/** A lister whose cache (resourceVersion "0") and storage hold what the test says. */
function fakeLister(state: { cached: KubeObject[]; stored: KubeObject[] }): {
  lister: Lister;
  live: () => number;
} {
  let live = 0;
  const lister = {
    list: (_ctx: RequestContext, o: ListOptions) => {
      if (o.resourceVersion !== '0') live++;
      return Promise.resolve({ items: o.resourceVersion === '0' ? state.cached : state.stored });
    },
  } as unknown as Lister;
  return { lister, live: () => live };
}

const obj = (name: string): KubeObject => ({ metadata: { name } });

describe('NamespacedLister', () => {
  it('answers from the cache when it holds objects, without a live read', async () => {
    const f = fakeLister({ cached: [obj('a')], stored: [obj('a'), obj('b')] });
    const l = new NamespacedLister({ lister: f.lister });
    assert.deepEqual(await l.list(testContext(), 'ns'), [obj('a')]);
    assert.equal(f.live(), 0);
  });

  it('reads live when the cache has none, once per TTL, shared by concurrent lookups', async () => {
    const state = { cached: [] as KubeObject[], stored: [obj('new')] };
    const f = fakeLister(state);
    let now = 0;
    const l = new NamespacedLister({ lister: f.lister, liveTTLMs: 1000, now: () => now });
    const both = await Promise.all([l.list(testContext(), 'ns'), l.list(testContext(), 'ns')]);
    assert.deepEqual(both, [[obj('new')], [obj('new')]]);
    assert.equal(f.live(), 1);
    now = 999;
    state.stored = [];
    assert.deepEqual(await l.list(testContext(), 'ns'), [obj('new')]);
    assert.equal(f.live(), 1);
    now = 1000;
    assert.deepEqual(await l.list(testContext(), 'ns'), []);
    assert.equal(f.live(), 2);
    await l.list(testContext(), 'other');
    assert.equal(f.live(), 3);
  });
});

describe('NamespacedLister over a store that can watch', () => {
  it('answers from its informer, grouped by namespace, following creates and deletes', async (t) => {
    const env = await memoryRESTOptions();
    t.after(() => env.close());
    const store = await newWidgetStore({ restOptions: env.getter });
    t.after(() => store.destroy());
    const { store: counting, reads } = countingStore(store);
    const live = (): number => reads.lists.filter((rv) => rv !== '0').length;
    await store.create(testContext('a'), widget('w1'), { options: {} });
    const l = new NamespacedLister({ lister: counting });
    t.after(() => {
      l.close();
    });
    const names = async (ns: string): Promise<string[]> =>
      (await l.list(testContext(), ns)).map((o) => o.metadata?.name ?? '').sort();
    const until = (ns: string, want: string[]): Promise<void> => untilNames(() => names(ns), want, ns);
    assert.deepEqual(await names('a'), ['w1']);
    await store.create(testContext('a'), widget('w2'), { options: {} });
    await store.create(testContext('b'), widget('w3'), { options: {} });
    await until('a', ['w1', 'w2']);
    await until('b', ['w3']);
    assert.equal(live(), 0, 'no live read while the namespaces hold objects');
    const listed = reads.lists.length;
    assert.deepEqual([await names('a'), await names('b')], [['w1', 'w2'], ['w3']]);
    assert.equal(reads.lists.length, listed, 'lookups read the informer, not the store');
    // What list() would answer, at once.
    const nowNames = (ns: string): string[] | undefined => l.listNow(ns)?.map((o) => o.metadata?.name ?? '');
    assert.deepEqual(nowNames('a'), ['w1', 'w2']);
    assert.equal(nowNames('c'), undefined, 'an empty namespace not read live yet: list() must read');
    await store.delete(testContext('b'), 'w3', { options: {} });
    await until('b', []);
    assert.equal(live(), 1, 'an empty namespace is read live once per TTL');
    const before = reads.lists.length;
    assert.deepEqual(nowNames('b'), [], 'its live read, at once while fresh');
    assert.equal(reads.lists.length, before, 'listNow reads nothing');
  });
});
