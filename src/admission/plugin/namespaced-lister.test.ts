// NamespacedLister: the cache's list when it has items; otherwise a live list, kept per namespace
// for the TTL and shared by lookups in flight together.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import type { Lister } from '../../registry/rest/capabilities.js';
import type { ListOptions } from '../../registry/rest/options.js';
import type { RequestContext } from '../../registry/rest/context.js';
import { testContext } from '../../registry/generic/testing/widgets.js';
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
