// A write's object, handed to the watch that shares objects (the watch cache's feed), dies young once
// the writer and the watch are done with it. It rides on the value written, not in a WeakMap by that
// value: V8's young-generation collections keep a WeakMap's values alive until a full collection
// whatever became of their keys, and every written object was promoted (docs/performance.md, stop 42).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { KubeObject } from '../../api/meta.js';
import { SqliteBackend } from '../backends/sqlite/sqlite-backend.js';
import { KvStore } from './kv-store.js';

// Collections on demand: young-generation ones to let objects die or be promoted, full ones to start
// from a settled heap.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (opts?: { type: 'minor' | 'major' }) => void;

const oldSpaceUsed = (): number =>
  getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')?.space_used_size ?? 0;

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
  const wanted: { count: number; reached?: () => void } = { count: 0 };
  const consumed = (async () => {
    for await (const event of watch) {
      if (event.type === 'ADDED') seen++;
      if (seen === wanted.count) wanted.reached?.();
    }
  })();
  const writeAll = async (from: number, to: number): Promise<void> => {
    const reached = new Promise<void>((resolve) => {
      wanted.count = to;
      wanted.reached = resolve;
    });
    for (let i = from; i < to; i++) {
      await store.create(`/things/ns/t${i}`, big(`t${i}`));
      // Young-generation collections as a busy server has them: an object still held survives two
      // and is promoted.
      if (i % 20 === 19) gc({ type: 'minor' });
    }
    await reached;
  };
  try {
    // Warmed up, then measured from a settled heap.
    await writeAll(0, 50);
    gc();
    const start = oldSpaceUsed();
    const objects = 300;
    await writeAll(50, 50 + objects);
    gc({ type: 'minor' });
    gc({ type: 'minor' });
    const promotedPerObject = (oldSpaceUsed() - start) / objects;
    assert.ok(promotedPerObject < 6000, `${promotedPerObject.toFixed(0)} bytes promoted per object written`);
  } finally {
    watch.stop();
    await consumed;
    await backend.close();
  }
});
