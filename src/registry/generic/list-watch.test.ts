import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Store } from './store.js';
import { rejectsWithStatus } from './testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from './testing/memory-rest-options.js';
import { newWidgetStore, testContext, widget, type Widget } from './testing/widgets.js';

const names = (items: readonly Widget[]): string[] =>
  items.map((w) => `${w.metadata?.namespace}/${w.metadata?.name}`);

describe('Store get, list and watch', () => {
  let env: MemoryRESTOptions;
  let store: Store<Widget>;
  before(async () => {
    env = await memoryRESTOptions();
    store = await newWidgetStore({ restOptions: env.getter });
    const put = async (ns: string, name: string, labels: Record<string, string>): Promise<void> => {
      const w = widget(name);
      w.metadata = { name, labels };
      await store.create(testContext(ns), w, { options: {} });
    };
    await put('a', 'one', { app: 'web', tier: 'front' });
    await put('a', 'two', { app: 'db' });
    await put('b', 'one', { app: 'web' });
  });
  after(() => env.close());

  it('gets by name and answers NotFound with kube text', async () => {
    const got = await store.get(testContext('a'), 'one', {});
    assert.equal(got.metadata?.labels?.app, 'web');
    const st = await rejectsWithStatus(store.get(testContext('a'), 'nope', {}), {
      code: 404,
      reason: 'NotFound',
      message: 'widgets.example.com "nope" not found',
    });
    assert.deepEqual(st.details, { name: 'nope', group: 'example.com', kind: 'widgets' });
  });

  it('lists a namespace or every namespace, as the store kind', async () => {
    const inA = await store.list(testContext('a'), {});
    assert.equal(inA.kind, 'WidgetList');
    assert.equal(inA.apiVersion, 'example.com/v1');
    assert.deepEqual(names(inA.items), ['a/one', 'a/two']);
    assert.match(inA.metadata.resourceVersion ?? '', /^\d+$/);
    const all = await store.list(testContext(''), {});
    assert.deepEqual(names(all.items), ['a/one', 'a/two', 'b/one']);
  });

  it('filters by label selector', async () => {
    const web = await store.list(testContext(''), { labelSelector: 'app=web' });
    assert.deepEqual(names(web.items), ['a/one', 'b/one']);
    const notFront = await store.list(testContext(''), { labelSelector: 'app in (web,db),tier!=front' });
    assert.deepEqual(names(notFront.items), ['a/two', 'b/one']);
  });

  it('filters by metadata.name and metadata.namespace field selectors', async () => {
    const one = await store.list(testContext(''), { fieldSelector: 'metadata.name=one' });
    assert.deepEqual(names(one.items), ['a/one', 'b/one']);
    const pinned = await store.list(testContext(''), { fieldSelector: 'metadata.namespace=b' });
    assert.deepEqual(names(pinned.items), ['b/one']);
    const single = await store.list(testContext('a'), { fieldSelector: 'metadata.name=two' });
    assert.deepEqual(names(single.items), ['a/two']);
    const none = await store.list(testContext('a'), { fieldSelector: 'metadata.name=zzz' });
    assert.deepEqual(none.items, []);
    const not = await store.list(testContext(''), { fieldSelector: 'metadata.name!=one' });
    assert.deepEqual(names(not.items), ['a/two']);
  });

  it('refuses bad selectors with BadRequest', async () => {
    await rejectsWithStatus(store.list(testContext(''), { fieldSelector: 'spec.size=1' }), {
      code: 400,
      reason: 'BadRequest',
      message: '"spec.size" is not a known field selector: only "metadata.name", "metadata.namespace"',
    });
    await rejectsWithStatus(store.list(testContext(''), { fieldSelector: 'nonsense' }), {
      code: 400,
      reason: 'BadRequest',
      message: "invalid selector: 'nonsense'; can't understand 'nonsense'",
    });
    await rejectsWithStatus(store.list(testContext(''), { labelSelector: 'a b' }), {
      code: 400,
      reason: 'BadRequest',
    });
  });

  it('pages with limit and continue', async () => {
    const first = await store.list(testContext(''), { limit: 2 });
    assert.equal(first.items.length, 2);
    assert.equal(first.metadata.remainingItemCount, 1);
    const rest = await store.list(testContext(''), { limit: 2, continue: first.metadata.continue ?? '' });
    assert.deepEqual(names(rest.items), ['b/one']);
    assert.equal(rest.metadata.continue, undefined);
  });

  it('watches from a resourceVersion, filtered by selectors', async () => {
    const list = await store.list(testContext(''), {});
    const ctrl = new AbortController();
    const ctx = { ...testContext('a'), signal: ctrl.signal };
    const w = await store.watch(ctx, {
      resourceVersion: list.metadata.resourceVersion ?? '',
      labelSelector: 'app=web',
    });
    const created = widget('three');
    created.metadata = { name: 'three', labels: { app: 'web' } };
    await store.create(
      testContext('a'),
      { ...widget('quiet'), metadata: { name: 'quiet', labels: { app: 'db' } } },
      { options: {} },
    );
    await store.create(testContext('a'), created, { options: {} });
    const it = w[Symbol.asyncIterator]();
    const ev = await it.next();
    assert.equal(ev.done, false);
    assert.equal(ev.value.type, 'ADDED');
    assert.equal(ev.value.object.metadata?.name, 'three');
    w.stop();
    ctrl.abort();
  });
});
