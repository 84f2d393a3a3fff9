// KvStore must pass the storage conformance suite over every embedded backend.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteBackend } from '../backends/sqlite/sqlite-backend.js';
import type { SqliteBackendOptions } from '../backends/sqlite/options.js';
import { runStorageConformance, type StoreHarness, type TestObject } from '../testing/conformance.js';
import { KvStore } from './kv-store.js';

// Short intervals keep the suite fast; no automatic compaction, so compact() alone decides history.
const testing: Omit<SqliteBackendOptions, 'path'> = {
  progressNotifyIntervalMs: 200,
  ttlSweepIntervalMs: 100,
  compaction: { intervalMs: 0, minRetainRevisions: 0, minRetainMs: 0 },
};

function harness(backend: SqliteBackend, cleanup: () => Promise<void>): StoreHarness {
  const store = new KvStore<TestObject>({
    backend,
    pathPrefix: '/registry',
    groupResource: { group: '', resource: 'pods' },
  });
  return {
    store,
    compact: (revision) => backend.compact(revision),
    close: async () => {
      await backend.close();
      await cleanup();
    },
  };
}

runStorageConformance('KvStore over SQLite (file)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-conformance-'));
  const backend = await SqliteBackend.open({ ...testing, path: join(dir, 'state.db') });
  return harness(backend, () => rm(dir, { recursive: true, force: true }));
});

runStorageConformance('KvStore over SQLite (memory)', async () => {
  const backend = await SqliteBackend.open({ ...testing, path: ':memory:' });
  return harness(backend, () => Promise.resolve());
});
