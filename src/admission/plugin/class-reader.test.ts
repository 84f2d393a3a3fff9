// classReader over a storage that can watch: lists and reads come from its informer once it has
// listed, following creates and deletes, without asking the storage again.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { memoryRESTOptions } from '../../registry/generic/testing/memory-rest-options.js';
import { newWidgetStore, testContext, widget, type Widget } from '../../registry/generic/testing/widgets.js';
import { countingStore, untilNames } from '../../registry/generic/testing/counting-store.js';
import { classReader } from './class-reader.js';

it('reads a cluster-scoped storage through its informer', async (t) => {
  const env = await memoryRESTOptions();
  t.after(() => env.close());
  // Widgets are namespaced; one namespace stands in for a cluster-scoped storage here.
  const store = await newWidgetStore({ restOptions: env.getter });
  t.after(() => store.destroy());
  const { store: counting, reads } = countingStore(store);
  const ctx = testContext();
  await store.create(ctx, widget('a'), { options: {} });
  const reader = classReader<Widget>(counting);
  t.after(() => {
    reader.close();
  });
  const names = async (): Promise<string[]> =>
    (await reader.list(ctx)).map((w) => w.metadata?.name ?? '').sort();
  const until = (want: string[]): Promise<void> => untilNames(names, want, 'the reader');
  await until(['a']);
  await store.create(ctx, widget('b'), { options: {} });
  await until(['a', 'b']);
  const before = reads.lists.length + reads.gets;
  assert.equal((await reader.get('b', ctx))?.metadata?.name, 'b');
  assert.deepEqual(await names(), ['a', 'b']);
  assert.equal(reads.lists.length + reads.gets, before, 'the informer answers without reading the storage');
  await store.delete(ctx, 'a', { options: { gracePeriodSeconds: 0 } });
  await until(['b']);
});
