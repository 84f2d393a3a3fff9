// Storage backend configuration (k8s.io/apiserver/pkg/storage/storagebackend/config.go): where and how
// one group-resource is stored. The storage factory fills it in; the backend factory turns it into a
// storage.Interface.
import type { KubeObject } from '../../api/meta.js';
import type { GroupResource } from '../../machinery/schema/group-resource.js';
import type { Clock } from '../../machinery/time/clock.js';
import type { CacheSeeds } from '../cacher/cache-seeds.js';
import type { RecentWrites } from '../cacher/recent-writes.js';
import type { Codec } from '../codec.js';
import type { Interface } from '../interfaces.js';
import type { Transformer } from '../value/transformer.js';

/** Backends Capstan knows; the factory refuses any other name, loudly. */
export const storageTypes = ['sqlite', 'memory', 'etcd3'] as const;
export type StorageType = (typeof storageTypes)[number];

/** kube's storagebackend.Config.Type default is etcd3; Capstan's is the embedded SQLite engine. */
export const defaultStorageType: StorageType = 'sqlite';

/** kube's DefaultEtcdPathPrefix (`--etcd-prefix`). */
export const defaultEtcdPathPrefix = '/registry';

/** kube's DefaultCompactInterval (`--etcd-compaction-interval`): 5 minutes. */
export const defaultCompactionIntervalMs = 5 * 60 * 1000;

/** kube's CountMetricPollPeriod default (`--etcd-count-metric-poll-period`): 1 minute. */
export const defaultCountMetricPollPeriodMs = 60 * 1000;

/** Everything that says which servers (or which files) a storage talks to. */
export interface TransportConfig {
  /** SQLite: the directory holding the database (`--data-dir`); unused for `memory`. */
  readonly dataDir?: string;
  /** SQLite and memory: a database image to start from (a fork of a test snapshot); not a flag. */
  readonly image?: Buffer;
  /** etcd3: client URLs (`--etcd-servers`, or an `--etcd-servers-overrides` entry). */
  readonly serverList?: readonly string[];
  readonly certFile?: string;
  readonly keyFile?: string;
  readonly trustedCAFile?: string;
  /** Trusted with the runtime's default roots when there is no trustedCAFile (NODE_EXTRA_CA_CERTS's meaning). */
  readonly extraTrustedCAFile?: string;
}

/** storagebackend.Config: shared by every resource unless the storage factory overrides a part. */
export interface StorageConfig {
  /** A StorageType; the flag value is kept as given so the backend factory can refuse others by name. */
  readonly type: string;
  /** Root of every key (`--etcd-prefix`), `/registry` by default. */
  readonly prefix: string;
  readonly transport: TransportConfig;
  /** List chunking with limit/continue (kube's Paging, on since APIListChunking went GA). */
  readonly paging?: boolean;
  /** Encodes objects for storage; JSON unless told (`--storage-media-type`). */
  readonly codec?: Codec;
  /** Between codec and backend: identity, or encryption at rest. */
  readonly transformer?: Transformer;
  /** How often the compactor runs; 0 turns it off. */
  readonly compactionIntervalMs?: number;
  /** How often object counts are polled for `apiserver_storage_objects`; 0 turns it off. */
  readonly countMetricPollPeriodMs?: number;
  /** How often the database size is polled for metrics; 0 turns it off. */
  readonly dbMetricPollIntervalMs?: number;
  /** The server's clock, for the embedded backends' TTL expiry and compaction window (default: the system's). */
  readonly clock?: Clock;
  /** The server's watch caches as test snapshots take them, and the seeds a fork's caches start from. */
  readonly cacheSeeds?: CacheSeeds;
  /** Where the server's watch caches keep the objects of handed-over writes (none kept without it). */
  readonly recentWrites?: RecentWrites<KubeObject>;
  /** Where the storage layer reports the failures it recovers from, as a watch cache's relist (default: console.warn). */
  readonly log?: (message: string) => void;
}

/** storagebackend.ConfigForResource: a StorageConfig bound to the group-resource it serves. */
export interface StorageConfigForResource extends StorageConfig {
  readonly groupResource: GroupResource;
}

/** A raw storage and the function that releases what it holds (kube's factory.DestroyFunc). */
export interface RawStorage {
  readonly storage: Interface;
  destroy(): Promise<void>;
}

/** The backend factory's signature (kube's factory.Create); implemented in this folder by the lead. */
export type CreateRawStorage = (config: StorageConfigForResource) => Promise<RawStorage>;

/** config.ForResource(resource). */
export function forResource(config: StorageConfig, groupResource: GroupResource): StorageConfigForResource {
  return { ...config, groupResource };
}
