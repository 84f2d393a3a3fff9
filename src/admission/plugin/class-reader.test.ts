// classReader over a storage that can watch: lists and reads come from its informer once it has
// listed, following creates and deletes, without asking the storage again.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { memoryRESTOptions } from '../../registry/generic/testing/memory-rest-options.js';
import { newWidgetStore, testContext, widget, type Widget } from '../../registry/generic/testing/widgets.js';
import { classReader } from './class-reader.js';

it('reads a cluster-scoped storage through its informer', async (t) => {
  const env = await memoryRESTOptions();
  t.after(() => env.close());
  // Widgets are namespaced; one namespace stands in for a cluster-scoped storage here.
  const store = await newWidgetStore({ restOptions: env.getter });
  t.after(() => store.destroy());
  let reads = 0;
  const counting = Object.create(store) as typeof store;
  counting.list = (ctx, o) => {
    reads++;
    return store.list(ctx, o);
  };
  counting.get = (ctx, name, o) => {
    reads++;
    return store.get(ctx, name, o);
  };
  const ctx = testContext();
  await store.create(ctx, widget('a'), { options: {} });
  const reader = classReader<Widget>(counting);
  t.after(() => {
    reader.close();
  });
  const names = async (): Promise<string[]> =>
    (await reader.list(ctx)).map((w) => w.metadata?.name ?? '').sort();
  const until = async (want: string[]): Promise<void> => {
    const deadline = Date.now() + 5000;
    while (JSON.stringify(await names()) !== JSON.stringify(want)) {
      if (Date.now() > deadline) assert.fail(`the reader lists ${JSON.stringify(await names())}`);
      await new Promise((r) => setImmediate(r));
    }
  };
  await until(['a']);
  await store.create(ctx, widget('b'), { options: {} });
  await until(['a', 'b']);
  const before = reads;
  assert.equal((await reader.get('b', ctx))?.metadata?.name, 'b');
  assert.deepEqual(await names(), ['a', 'b']);
  assert.equal(reads, before, 'the informer answers without reading the storage');
  await store.delete(ctx, 'a', { options: { gracePeriodSeconds: 0 } });
  await until(['b']);
});
