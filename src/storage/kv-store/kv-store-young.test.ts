// A write's object, handed to the watch that shares objects (the watch cache's feed), dies young once
// the writer and the watch are done with it. It rides on the value written, not in a WeakMap by that
// value: V8's young-generation collections keep a WeakMap's values alive until a full collection
// whatever became of their keys, and every written object was promoted (docs/performance.md, stop 42).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { promotedPerCall } from '../../machinery/testing/heap.js';
import { SqliteBackend } from '../backends/sqlite/sqlite-backend.js';
import { KvStore } from './kv-store.js';

/** An object of ~25 KB on the heap: 600 small members. */
const big = (name: string): KubeObject => ({
  metadata: { name },
  spec: { items: Array.from({ length: 600 }, (_, i) => ({ name: `item-${i}`, value: i })) },
});

it('a written object dies young once the shared watch has taken it', async () => {
  const backend = await SqliteBackend.open({ path: ':memory:', compaction: { intervalMs: 0 } });
  const store = new KvStore<KubeObject>({ backend, groupResource: { group: '', resource: 'things' } });
  const watch = await store.watch('/things/ns', {
    recursive: true,
    resourceVersion: '1',
    shareObjects: true,
  });
  let seen = 0;
  let waiting: { count: number; resolve: () => void } | undefined;
  const consumed = (async () => {
    for await (const event of watch) {
      if (event.type === 'ADDED') seen++;
      if (waiting !== undefined && seen >= waiting.count) waiting.resolve();
    }
  })();
  const seenAll = (count: number): Promise<void> =>
    seen >= count ? Promise.resolve() : new Promise((resolve) => (waiting = { count, resolve }));
  try {
    let written = 0;
    const promoted = await promotedPerCall(300, async (i) => {
      await store.create(`/things/ns/t${i}`, big(`t${i}`));
      await seenAll(++written);
    });
    assert.ok(promoted < 6000, `${promoted.toFixed(0)} bytes promoted per object written`);
  } finally {
    watch.stop();
    await consumed;
    await backend.close();
  }
});
