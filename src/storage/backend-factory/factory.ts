// factory.Create (k8s.io/apiserver/pkg/storage/storagebackend/factory): turns a resource's storage
// config into a storage.Interface. Backends are shared: every resource on one SQLite file, or on
// one etcd cluster, uses one connection; the last destroy closes it.
import type { KubeObject } from '../../api/meta.js';
import type { Backend } from '../kv/backend.js';
import { KvStore } from '../kv-store/kv-store.js';
import {
  defaultStorageType,
  storageTypes,
  type RawStorage,
  type StorageConfigForResource,
  type StorageType,
} from './config.js';
import { backendDescriptors, type OpenBackend } from './descriptors.js';

interface PoolEntry {
  readonly type: StorageType;
  readonly open: Promise<OpenBackend>;
  refs: number;
}

/**
 * One storage cluster's size, for `apiserver_storage_size_bytes{storage_cluster_id}`: ids are the
 * type and its index among the open backends of that type (kube's `etcd-0`, `etcd-1`, …).
 */
export interface StorageMonitor {
  readonly storageClusterId: string;
  /** Bytes the storage occupies (etcd: Status dbSize; SQLite: page_count × page_size plus the WAL). */
  size(): Promise<number>;
}

const monitorNames: Record<StorageType, string> = { etcd3: 'etcd', sqlite: 'sqlite', memory: 'memory' };

function storageType(type: string): StorageType {
  if (type === '') return defaultStorageType;
  if (type === 'etcd2') throw new Error('etcd2 is no longer a supported storage backend');
  if (!(storageTypes as readonly string[]).includes(type)) throw new Error(`unknown storage type: ${type}`);
  return type as StorageType;
}

export class BackendFactory {
  readonly #pool = new Map<string, PoolEntry>();

  /** The shared backend for a config, opened on first use. */
  async backendFor(config: StorageConfigForResource): Promise<Backend> {
    const type = storageType(config.type);
    const descriptor = backendDescriptors[type];
    const poolKey = `${type}:${descriptor.transportKey(config.transport)}`;
    let entry = this.#pool.get(poolKey);
    if (entry === undefined) {
      entry = { type, open: descriptor.open(config), refs: 0 };
      this.#pool.set(poolKey, entry);
      entry.open.catch(() => this.#pool.delete(poolKey));
    }
    return (await entry.open).backend;
  }

  /** kube's factory.Create: a raw storage for one resource and the function that releases it. */
  async create(config: StorageConfigForResource, newFunc?: () => KubeObject): Promise<RawStorage> {
    const type = storageType(config.type);
    const poolKey = `${type}:${backendDescriptors[type].transportKey(config.transport)}`;
    const backend = await this.backendFor(config);
    const entry = this.#pool.get(poolKey);
    if (entry !== undefined) entry.refs++;
    const storage = new KvStore({
      backend,
      pathPrefix: config.prefix,
      groupResource: config.groupResource,
      ...(config.codec !== undefined ? { codec: config.codec } : {}),
      ...(config.transformer !== undefined ? { transformer: config.transformer } : {}),
      ...(newFunc !== undefined ? { newFunc } : {}),
    });
    let destroyed = false;
    const destroy = async (): Promise<void> => {
      if (destroyed) return;
      destroyed = true;
      const e = this.#pool.get(poolKey);
      if (e === undefined) return;
      e.refs--;
      if (e.refs <= 0) {
        this.#pool.delete(poolKey);
        await (await e.open).close();
      }
    };
    return { storage, destroy };
  }

  /** The backends opened so far, in the order they were opened (test snapshots copy them). */
  openBackends(): Promise<Backend[]> {
    return Promise.all([...this.#pool.values()].map(async (entry) => (await entry.open).backend));
  }

  /** A monitor per backend opened so far, in the order they were opened. */
  monitors(): StorageMonitor[] {
    const seen: Partial<Record<StorageType, number>> = {};
    return [...this.#pool.values()].map((entry) => {
      const index = seen[entry.type] ?? 0;
      seen[entry.type] = index + 1;
      return {
        storageClusterId: `${monitorNames[entry.type]}-${index}`,
        size: async () => (await entry.open).backend.size(),
      };
    });
  }

  /** Closes every backend still open. */
  async close(): Promise<void> {
    const entries = [...this.#pool.values()];
    this.#pool.clear();
    await Promise.all(entries.map(async (e) => (await e.open).close()));
  }
}
