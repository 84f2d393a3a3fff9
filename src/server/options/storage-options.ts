// Storage flags (kube's EtcdOptions plus Capstan's embedded backends): which backend, where its
// data lives, the etcd connection, the watch cache, and delete-collection workers.
import { parseWatchCacheSizes } from '../../registry/generic/watch-cache-sizes.js';
import { errorText } from '../logging/error-text.js';
import { validateEtcdServersOverrides } from '../storage-factory.js';
import type { CacheSeedMap } from '../../storage/cacher/cache-seeds.js';

export const storageBackendNames = ['sqlite', 'etcd3', 'memory'] as const;
export type StorageBackendName = (typeof storageBackendNames)[number];

export interface StorageOptions {
  /** --storage-backend: sqlite (default, in --data-dir), etcd3 (--etcd-servers) or memory. */
  backend: StorageBackendName;
  /** --data-dir: the SQLite database, certificates, the admin token and the kubeconfig. */
  dataDir: string;
  /** --etcd-prefix: the key prefix every resource is stored under. */
  prefix: string;
  etcdServers: string[];
  etcdCaFile: string;
  /**
   * Node's NODE_EXTRA_CA_CERTS, which bin/capstan hands over as CAPSTAN_EXTRA_CA_CERTS (Node reads
   * that file at process start, ~90 ms on a full system bundle): trusted along with Node's own roots
   * for an https etcd when --etcd-cafile is not given. Not a flag.
   */
  etcdExtraCaFile: string;
  etcdCertFile: string;
  etcdKeyFile: string;
  /** --etcd-compaction-interval; 0 turns compaction off. */
  compactionIntervalMs: number;
  /** --etcd-servers-overrides: `group/resource#url;url`. */
  serversOverrides: string[];
  /** --etcd-count-metric-poll-period: how often object counts are polled for metrics; 0 turns it off. */
  countMetricPollPeriodMs: number;
  /** --etcd-db-metric-poll-interval: how often the database size is polled for metrics; 0 turns it off. */
  dbMetricPollIntervalMs: number;
  /** --etcd-healthcheck-timeout and --etcd-readycheck-timeout: the storage checks' deadlines (0: 2 s). */
  healthcheckTimeoutMs: number;
  readycheckTimeoutMs: number;
  enableWatchCache: boolean;
  defaultWatchCacheSize: number;
  /** --watch-cache-sizes: `resource[.group]#size`. */
  watchCacheSizes: string[];
  deleteCollectionWorkers: number;
  /** --enable-garbage-collector: deletes add the orphan/foregroundDeletion finalizers a garbage collector honours. */
  enableGarbageCollection: boolean;
  /** --encryption-provider-config: an EncryptionConfiguration file; '' stores values as they are. */
  encryptionProviderConfigFilepath: string;
  /** --encryption-provider-config-automatic-reload: follow changes to that file. */
  encryptionProviderConfigAutomaticReload: boolean;
  /** Not a flag: the database image the embedded backend starts from (a fork of a test snapshot). */
  seedImage?: Buffer;
  /** Not a flag: the watch caches' content when that image was taken (see CacheSeeds). */
  seedCaches?: CacheSeedMap;
}

export function defaultStorageOptions(): StorageOptions {
  return {
    backend: 'sqlite',
    dataDir: './.capstan',
    prefix: '/registry',
    etcdServers: [],
    etcdCaFile: '',
    etcdExtraCaFile: '',
    etcdCertFile: '',
    etcdKeyFile: '',
    compactionIntervalMs: 5 * 60_000,
    serversOverrides: [],
    countMetricPollPeriodMs: 60_000,
    dbMetricPollIntervalMs: 30_000,
    healthcheckTimeoutMs: 2_000,
    readycheckTimeoutMs: 2_000,
    enableWatchCache: true,
    defaultWatchCacheSize: 100,
    watchCacheSizes: [],
    deleteCollectionWorkers: 1,
    enableGarbageCollection: true,
    encryptionProviderConfigFilepath: '',
    encryptionProviderConfigAutomaticReload: false,
  };
}

export function validateStorageOptions(o: StorageOptions): string[] {
  const errs: string[] = [];
  if (!(storageBackendNames as readonly string[]).includes(o.backend)) {
    errs.push(
      `--storage-backend invalid, allowed values: ${storageBackendNames.join(', ')}. If not specified, it will default to 'sqlite'`,
    );
  }
  if (o.backend === 'etcd3' && o.etcdServers.length === 0) errs.push('--etcd-servers must be specified');
  if (o.dataDir === '') errs.push('--data-dir must not be empty');
  errs.push(...validateEtcdServersOverrides(o.serversOverrides).map((e) => e.message));
  try {
    parseWatchCacheSizes(o.watchCacheSizes);
  } catch (err) {
    errs.push(errorText(err));
  }
  if (o.defaultWatchCacheSize < 0) errs.push('--default-watch-cache-size can not be negative value');
  if (o.deleteCollectionWorkers <= 0) errs.push('--delete-collection-workers must be greater than 0');
  if (o.compactionIntervalMs < 0) errs.push('--etcd-compaction-interval can not be negative value');
  if (o.encryptionProviderConfigAutomaticReload && o.encryptionProviderConfigFilepath === '') {
    errs.push('--encryption-provider-config-automatic-reload must be set with --encryption-provider-config');
  }
  return errs;
}
