// RESTOptions over a real store for registry tests: a KvStore per resource on one in-memory SQLite
// backend, as `--storage-backend=memory` would give. No storage is mocked.
import type { GroupResource } from '../../../machinery/schema/group-resource.js';
import type { CreateRawStorage, StorageConfigForResource } from '../../../storage/backend-factory/config.js';
import { SqliteBackend } from '../../../storage/backends/sqlite/sqlite-backend.js';
import { KvStore } from '../../../storage/kv-store/kv-store.js';
import { undecoratedStorage, type RESTOptions, type RESTOptionsGetter } from '../rest-options.js';

export interface MemoryRESTOptionsInit {
  readonly enableGarbageCollection?: boolean;
  readonly deleteCollectionWorkers?: number;
  readonly countMetricPollPeriodMs?: number;
  /** The resource prefix per resource; its lowercase name by default. */
  readonly resourcePrefix?: (resource: GroupResource) => string;
}

export interface MemoryRESTOptions {
  readonly getter: RESTOptionsGetter;
  readonly backend: SqliteBackend;
  readonly createRawStorage: CreateRawStorage;
  close(): Promise<void>;
}

/** A raw storage factory over one backend; destroying a storage leaves the shared backend open. */
export function kvStoreFactory(backend: SqliteBackend): CreateRawStorage {
  return (config: StorageConfigForResource) =>
    Promise.resolve({
      storage: new KvStore({ backend, pathPrefix: config.prefix, groupResource: config.groupResource }),
      destroy: () => Promise.resolve(),
    });
}

export async function memoryRESTOptions(init: MemoryRESTOptionsInit = {}): Promise<MemoryRESTOptions> {
  const backend = await SqliteBackend.open({ path: ':memory:', compaction: { intervalMs: 0 } });
  const createRawStorage = kvStoreFactory(backend);
  const getter: RESTOptionsGetter = {
    getRESTOptions(resource: GroupResource): RESTOptions {
      return {
        storageConfig: { type: 'memory', prefix: '/registry', transport: {}, groupResource: resource },
        decorator: undecoratedStorage(createRawStorage),
        enableGarbageCollection: init.enableGarbageCollection ?? true,
        deleteCollectionWorkers: init.deleteCollectionWorkers ?? 1,
        resourcePrefix: init.resourcePrefix?.(resource) ?? resource.resource.toLowerCase(),
        countMetricPollPeriodMs: init.countMetricPollPeriodMs ?? 0,
      };
    },
  };
  return { getter, backend, createRawStorage, close: () => backend.close() };
}
