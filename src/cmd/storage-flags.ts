// The storage flags (kube's EtcdOptions flags, plus --storage-backend and --data-dir).
import { storageBackendNames, type StorageBackendName } from '../server/options/storage-options.js';
import { flag, oneOf, type Spec } from './flag-helpers.js';
import { parseBoolFlag, parseDurationFlag, parseIntFlag, parseListFlag } from './flag-values.js';

const etcd = 'Etcd';
export const storageFlags: Spec[] = [
  flag(
    {
      section: etcd,
      name: 'storage-backend',
      kind: 'string',
      usage: `The storage backend for persistence. Options: ${storageBackendNames.join(', ')}.`,
      def: 'sqlite',
    },
    (o, v) => (o.storage.backend = oneOf<StorageBackendName>(storageBackendNames, v)),
  ),
  flag(
    {
      section: etcd,
      name: 'data-dir',
      kind: 'string',
      usage:
        'Directory for the SQLite database, the generated certificates, the admin token and the kubeconfig.',
      def: './.capstan',
    },
    (o, v) => (o.storage.dataDir = v),
  ),
  flag(
    {
      section: etcd,
      name: 'etcd-servers',
      kind: 'strings',
      usage: 'List of etcd servers to connect with (scheme://ip:port), comma separated.',
    },
    (o, v) => o.storage.etcdServers.push(...parseListFlag(v)),
  ),
  flag(
    {
      section: etcd,
      name: 'etcd-prefix',
      kind: 'string',
      usage: 'The prefix to prepend to all resource paths in etcd.',
      def: '/registry',
    },
    (o, v) => (o.storage.prefix = v),
  ),
  flag(
    {
      section: etcd,
      name: 'etcd-cafile',
      kind: 'string',
      usage: 'SSL Certificate Authority file used to secure etcd communication.',
    },
    (o, v) => (o.storage.etcdCaFile = v),
  ),
  flag(
    {
      section: etcd,
      name: 'etcd-certfile',
      kind: 'string',
      usage: 'SSL certification file used to secure etcd communication.',
    },
    (o, v) => (o.storage.etcdCertFile = v),
  ),
  flag(
    {
      section: etcd,
      name: 'etcd-keyfile',
      kind: 'string',
      usage: 'SSL key file used to secure etcd communication.',
    },
    (o, v) => (o.storage.etcdKeyFile = v),
  ),
  flag(
    {
      section: etcd,
      name: 'encryption-provider-config',
      kind: 'string',
      usage:
        'The file containing configuration for encryption providers to be used for storing secrets in etcd',
    },
    (o, v) => (o.storage.encryptionProviderConfigFilepath = v),
  ),
  flag(
    {
      section: etcd,
      name: 'encryption-provider-config-automatic-reload',
      kind: 'bool',
      usage:
        'Determines if the file set by --encryption-provider-config should be automatically reloaded if the disk contents change. Setting this to true disables the ability to uniquely identify distinct KMS plugins via the API server healthz endpoints.',
    },
    (o, v) => (o.storage.encryptionProviderConfigAutomaticReload = parseBoolFlag(v)),
  ),
  flag(
    {
      section: etcd,
      name: 'etcd-compaction-interval',
      kind: 'duration',
      usage: 'The interval of compaction requests. If 0, the compaction request from apiserver is disabled.',
      def: '5m0s',
    },
    (o, v) => (o.storage.compactionIntervalMs = parseDurationFlag(v)),
  ),
  flag(
    {
      section: etcd,
      name: 'etcd-count-metric-poll-period',
      kind: 'duration',
      usage: 'Frequency of polling etcd for number of resources per type. 0 disables the metric collection.',
      def: '1m0s',
    },
    (o, v) => (o.storage.countMetricPollPeriodMs = parseDurationFlag(v)),
  ),
  flag(
    {
      section: etcd,
      name: 'etcd-db-metric-poll-interval',
      kind: 'duration',
      usage: 'The interval of requests to poll etcd and update metric. 0 disables the metric collection',
      def: '30s',
    },
    (o, v) => (o.storage.dbMetricPollIntervalMs = parseDurationFlag(v)),
  ),
  flag(
    {
      section: etcd,
      name: 'etcd-healthcheck-timeout',
      kind: 'duration',
      usage: 'The timeout to use when checking etcd health.',
      def: '2s',
    },
    (o, v) => (o.storage.healthcheckTimeoutMs = parseDurationFlag(v)),
  ),
  flag(
    {
      section: etcd,
      name: 'etcd-readycheck-timeout',
      kind: 'duration',
      usage: 'The timeout to use when checking etcd readiness',
      def: '2s',
    },
    (o, v) => (o.storage.readycheckTimeoutMs = parseDurationFlag(v)),
  ),
  flag(
    {
      section: etcd,
      name: 'etcd-servers-overrides',
      kind: 'strings',
      usage:
        'Per-resource etcd servers overrides, comma separated. The individual override format: group/resource#servers, where servers are URLs, semicolon separated.',
    },
    (o, v) => o.storage.serversOverrides.push(...parseListFlag(v)),
  ),
  flag(
    {
      section: etcd,
      name: 'watch-cache',
      kind: 'bool',
      usage: 'Enable watch caching in the apiserver.',
      def: 'true',
    },
    (o, v) => (o.storage.enableWatchCache = parseBoolFlag(v)),
  ),
  flag(
    {
      section: etcd,
      name: 'default-watch-cache-size',
      kind: 'int',
      usage:
        'Default watch cache size. If zero, watch cache will be disabled for resources that do not have a default watch size set.',
      def: '100',
    },
    (o, v) => (o.storage.defaultWatchCacheSize = parseIntFlag(v)),
  ),
  flag(
    {
      section: etcd,
      name: 'watch-cache-sizes',
      kind: 'strings',
      usage:
        'Watch cache size settings for some resources (pods, nodes, etc.), comma separated. The individual setting format: resource[.group]#size.',
    },
    (o, v) => o.storage.watchCacheSizes.push(...parseListFlag(v)),
  ),
  flag(
    {
      section: etcd,
      name: 'delete-collection-workers',
      kind: 'int',
      usage:
        'Number of workers spawned for DeleteCollection call. These are used to speed up namespace cleanup.',
      def: '1',
    },
    (o, v) => (o.storage.deleteCollectionWorkers = parseIntFlag(v)),
  ),
  flag(
    {
      section: etcd,
      name: 'enable-garbage-collector',
      kind: 'bool',
      usage:
        'Enables the generic garbage collector. MUST be synced with the corresponding flag of the kube-controller-manager.',
      def: 'true',
    },
    (o, v) => (o.storage.enableGarbageCollection = parseBoolFlag(v)),
  ),
];
