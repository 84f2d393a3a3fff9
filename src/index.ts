// Capstan as a library: start an API server in this process (many may run side by side; each has
// its own port, data dir, metrics and storage) and stop it again.
import { constants, copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assembleBuiltinAPI } from './controlplane/api-assembly.js';
import { ControlPlane } from './controlplane/instance.js';
import type { ListenerConfig } from './server/http/serving-listener.js';
import type { KubeConfig } from './server/kubeconfig.js';
import type { LogFormat, LogSink } from './server/logging/logger.js';
import { completeServerRunOptions } from './server/options/complete.js';
import { defaultServerRunOptions } from './server/options/server-run-options.js';
import type { AuthorizationOptions } from './server/options/authorization-options.js';
import type { StorageBackendName } from './server/options/storage-options.js';
import type { ServerClock } from './server/test-api/server-clock.js';
import type { ClockKind } from './machinery/time/clock.js';
import type { PodStages } from './controlplane/controllers/kubelet/pod-stages.js';
import type { Faults } from './server/test-api/faults.js';
import type { SnapshotData, SnapshotInfo } from './server/test-api/snapshots.js';
import type { RequestFilter, RequestLogOptions, RequestRecord } from './server/test-api/request-log.js';
import type { ClientTarget } from './server/test-api/http-client.js';
import { replaySession, type ReplayedCall, type ReplayOptions } from './server/test-api/replay.js';
import { installCRDs, type CRDInstallOptions } from './server/test-api/crd-install.js';
import {
  installWebhooks,
  type WebhookInstallOptions,
  type WebhookServing,
} from './server/test-api/webhook-install.js';

export type { KubeConfig } from './server/kubeconfig.js';
export type { LogSink } from './server/logging/logger.js';
export type { ServerClock } from './server/test-api/server-clock.js';
export type { FaultCode, FaultRule } from './server/test-api/faults.js';
export type { RequestFilter, RequestLogOptions, RequestRecord } from './server/test-api/request-log.js';
export type { ReplayedCall, ReplayOptions } from './server/test-api/replay.js';
export type { SnapshotInfo } from './server/test-api/snapshots.js';
export type { CRDInstallOptions } from './server/test-api/crd-install.js';
export type { WebhookInstallOptions, WebhookServing } from './server/test-api/webhook-install.js';
export { testAPIPrefix } from './server/test-api/prefix.js';
export type { PodStage, PodStages } from './controlplane/controllers/kubelet/pod-stages.js';

export interface StartCapstanOptions {
  /** Default `memory`. */
  readonly storage?: StorageBackendName;
  /** Default: a new temporary directory, removed by stop(). */
  readonly dataDir?: string;
  readonly etcdServers?: readonly string[];
  readonly etcdPrefix?: string;
  /** `https` (default, the kubeconfig trusts a generated CA) or `http` on loopback. */
  readonly scheme?: 'https' | 'http';
  readonly bindAddress?: string;
  /** Default 0: a free port. */
  readonly port?: number;
  /** --anonymous-auth (default false here); as kube, it has no effect under AlwaysAllow. */
  readonly anonymousAuth?: boolean;
  /** --authorization-mode: `AlwaysAllow` (the default), `AlwaysDeny`, `Node`, `Webhook`, `RBAC`, in order. */
  readonly authorizationModes?: readonly string[];
  /**
   * The Webhook mode's service: --authorization-webhook-config-file (a kubeconfig naming it),
   * --authorization-webhook-version (`v1beta1` by default, as kube) and the decision cache's TTLs
   * (--authorization-webhook-cache-authorized-ttl and -unauthorized-ttl; 5 minutes and 30 s).
   */
  readonly authorizationWebhook?: {
    readonly configFile: string;
    readonly version?: 'v1' | 'v1beta1';
    readonly authorizedTTLMs?: number;
    readonly unauthorizedTTLMs?: number;
  };
  /** --authorization-config: an AuthorizationConfiguration file, instead of the two options above. */
  readonly authorizationConfigFile?: string;
  /** --enable-admission-plugins and --disable-admission-plugins (default: kube-apiserver 1.33's default-on set). */
  readonly enableAdmissionPlugins?: readonly string[];
  readonly disableAdmissionPlugins?: readonly string[];
  /** --token-auth-file: static bearer tokens (CSV: token,user,uid,"group1,group2"). */
  readonly tokenAuthFile?: string;
  /** --client-ca-file: client certificates signed by this CA authenticate (CN = user, O = groups). */
  readonly clientCAFile?: string;
  /** --pki-dir: a directory `capstan pki` wrote, shared by replicas of one cluster on one etcd. */
  readonly pkiDir?: string;
  /** --runtime-config values: `api/all=false,apps/v1=true`. */
  readonly runtimeConfig?: readonly string[];
  /**
   * --feature-gates: kube 1.33's gates by name (`{ ImageVolume: true }`), refused as kube refuses
   * an unknown or locked one; Capstan models ClusterTrustBundleProjection, ImageVolume,
   * InPlacePodVerticalScaling and PodObservedGenerationTracking.
   */
  readonly featureGates?: Readonly<Record<string, boolean>>;
  readonly requestTimeoutMs?: number;
  /** --enable-garbage-collector: the garbage collector and the finalizers it honours (default true). */
  readonly enableGarbageCollector?: boolean;
  /**
   * --simulate and --simulate-nodes: a simulated cluster (nodes, kubelets, scheduler, workload
   * controllers) in the server; `true` registers 3 nodes. Off by default. `stages` replaces the
   * simulated kubelets' pod lifecycle (--simulate-stages; see PodStages); `podStopSeconds` is how
   * long a deleted pod without capstan.dev/stop-seconds takes to stop (--simulate-pod-stop-seconds;
   * default 0, at once); `metrics: false` stops serving metrics.k8s.io for `kubectl top` and HPAs
   * (--simulate-metrics); `terminatedPodGCThreshold` is how many terminated pods PodGC leaves
   * (--terminated-pod-gc-threshold; default 12500, kube's; 0 or below: none deleted).
   */
  readonly simulate?:
    | boolean
    | {
        readonly nodes?: number;
        readonly stages?: PodStages;
        readonly podStopSeconds?: number;
        readonly metrics?: boolean;
        readonly terminatedPodGCThreshold?: number;
      };
  /** Where the admin kubeconfig goes; default <dataDir>/kubeconfig. */
  readonly kubeconfigPath?: string;
  /** `real` (the default: the system clock) or `virtual`: time stands still until `clock.advance()`. */
  readonly clock?: ClockKind;
  /** The request log behind `requests()`: its capacity, and whether it keeps bodies (default: on, 10,000, no bodies). */
  readonly requestLog?: RequestLogOptions | false;
  /**
   * --enable-test-api: also serve snapshots, the request log, faults and the clock over HTTP under
   * /capstan/v1/ to members of system:masters (the `capstan` subcommands use it). Default false.
   */
  readonly enableTestAPI?: boolean;
  /**
   * Freeze what the watch caches hand to updates, all but its metadata, so that code changing those
   * objects in place (which a write may copy from the cache's JSON) throws: for tests of Capstan
   * itself, or of code plugged into it. Default: on when CAPSTAN_CHECK_SHARING is `1` (the test
   * suite sets it).
   */
  readonly checkSharing?: boolean;
  /**
   * --console: serve the web console at /console/ and the history API under /capstan/v1/history/.
   * Default as the CLI's: on for the embedded store (memory, sqlite), off for etcd3; `false` turns it off.
   */
  readonly console?: boolean;
  /** Where log lines go; by default only errors, to stderr. */
  readonly log?: { readonly sink: LogSink; readonly format?: LogFormat; readonly verbosity?: number };
  /** CRDs installed before startCapstan resolves, and served by then (envtest's CRDInstallOptions). */
  readonly crds?: CRDInstallOptions;
}

/** A running server, as startCapstan() returns it. */
export interface CapstanServer {
  /** Where it serves, e.g. `https://127.0.0.1:40123`. */
  readonly url: string;
  /** The admin kubeconfig on disk (kubectl's `--kubeconfig`). */
  readonly kubeconfigPath: string;
  /** The same kubeconfig as a document: `new KubeConfig().loadFromString(JSON.stringify(kubeConfig))`. */
  readonly kubeConfig: KubeConfig;
  /** Its data directory (removed by stop() when startCapstan made it). */
  readonly dataDir: string;
  /** The cluster's clock: every timestamp, TTL and expiry the server computes reads it. */
  readonly clock: ServerClock;
  /** The requests served, oldest first, that match every field of `filter` ([] with the log turned off). */
  requests(filter?: RequestFilter): RequestRecord[];
  /** Forgets the requests logged so far. */
  clearRequests(): void;
  /**
   * Sends recorded requests (another server's `requests()`, logged with bodies) to this server again,
   * in order, each as the user who sent it; writes only unless `reads`. Resolves with each one's
   * code then and now.
   */
  replay(records: readonly RequestRecord[], options?: ReplayOptions): Promise<ReplayedCall[]>;
  /** Faults injected into the requests served: `add(rule)` returns an id for `remove(id)`. */
  readonly faults: Pick<Faults, 'add' | 'remove' | 'clear' | 'list'>;
  /** Copies every stored object; the name it returns restores or forks that state. */
  snapshot(): Promise<string>;
  /** The snapshots taken, oldest first. */
  snapshots(): SnapshotInfo[];
  /**
   * Compacts the store at its newest revision and breaks every watch as a compaction does: watchers
   * that resume from an older resourceVersion get 410 Expired and list again. Resolves with the revision.
   */
  compact(): Promise<number>;
  /** Brings every stored object back to the snapshot (watchers get the changes as events). */
  restore(name: string): Promise<void>;
  /** Starts another server in this process (same options, its own port and data) holding the snapshot. */
  fork(name: string): Promise<CapstanServer>;
  /** Creates (or updates) CRDs from manifests or objects; resolves with their names once they are served. */
  installCRDs(options: CRDInstallOptions): Promise<string[]>;
  /**
   * Installs admission webhook configurations aimed at a webhook server the test runs (envtest's
   * WebhookInstallOptions); resolves with its address and the certificate to serve with.
   */
  installWebhooks(options: WebhookInstallOptions): Promise<WebhookServing>;
  /** With the console on: a new one-time link that opens the console logged in as the admin. */
  consoleLoginURL(): string | undefined;
  /** Ends watches and requests, closes the store and the port; nothing of the server stays in the process. */
  stop(): Promise<void>;
}

/** The admin kubeconfig as a client target: the server, its CA, the admin token. */
function adminTarget(kc: KubeConfig): ClientTarget {
  const cluster = kc.clusters[0]?.cluster;
  const ca = cluster?.['certificate-authority-data'];
  return {
    server: cluster?.server ?? '',
    insecure: false,
    token: kc.users[0]?.user.token ?? '',
    ...(ca === undefined ? {} : { ca: Buffer.from(ca, 'base64') }),
  };
}

// Without a sink, only errors are shown (on stderr): a library should be quiet, not secretive.
const errorsOnly: LogSink = {
  write: (line: string) => (line.startsWith('E') ? process.stderr.write(line) : true),
};

/** The authorization options beyond the modes, as the --authorization-* flags set them. */
function authorizationOptionsOf(opts: StartCapstanOptions, a: AuthorizationOptions): void {
  const webhook = opts.authorizationWebhook;
  // kube's AreLegacyFlagsSet: any of the mode or webhook flags, which --authorization-config excludes.
  a.legacyFlagsSet = opts.authorizationModes !== undefined || webhook !== undefined;
  if (webhook !== undefined) {
    a.webhookConfigFile = webhook.configFile;
    if (webhook.version !== undefined) a.webhookVersion = webhook.version;
    if (webhook.authorizedTTLMs !== undefined) a.webhookCacheAuthorizedTTLMs = webhook.authorizedTTLMs;
    if (webhook.unauthorizedTTLMs !== undefined) a.webhookCacheUnauthorizedTTLMs = webhook.unauthorizedTTLMs;
  }
  if (opts.authorizationConfigFile !== undefined) a.configFile = opts.authorizationConfigFile;
}

function runOptions(opts: StartCapstanOptions, dataDir: string): ReturnType<typeof defaultServerRunOptions> {
  const o = defaultServerRunOptions();
  o.storage.backend = opts.storage ?? 'memory';
  o.storage.dataDir = dataDir;
  o.storage.etcdServers = [...(opts.etcdServers ?? [])];
  if (opts.etcdPrefix !== undefined) o.storage.prefix = opts.etcdPrefix;
  o.bindAddress = opts.bindAddress ?? '127.0.0.1';
  // The listener below replaces the flags' ports (which cannot say "a free port"); these only
  // choose which material completion prepares.
  o.securePort = opts.scheme === 'http' ? -1 : 0;
  o.insecurePort = opts.scheme === 'http' ? 1 : 0;
  o.anonymousAuth = opts.anonymousAuth ?? false;
  o.authorizationModes = [...(opts.authorizationModes ?? [])];
  authorizationOptionsOf(opts, o.authorization);
  o.enableAdmissionPlugins = [...(opts.enableAdmissionPlugins ?? [])];
  o.disableAdmissionPlugins = [...(opts.disableAdmissionPlugins ?? [])];
  if (opts.tokenAuthFile !== undefined) o.tokenAuthFile = opts.tokenAuthFile;
  if (opts.clientCAFile !== undefined) o.clientCAFile = opts.clientCAFile;
  if (opts.pkiDir !== undefined) o.replicas.pkiDir = opts.pkiDir;
  o.runtimeConfig = [...(opts.runtimeConfig ?? [])];
  if (opts.featureGates !== undefined) o.featureGates = o.featureGates.with(opts.featureGates);
  if (opts.requestTimeoutMs !== undefined) o.requestTimeoutMs = opts.requestTimeoutMs;
  if (opts.kubeconfigPath !== undefined) o.kubeconfigOut = opts.kubeconfigPath;
  if (opts.enableGarbageCollector !== undefined)
    o.storage.enableGarbageCollection = opts.enableGarbageCollector;
  o.clockKind = opts.clock ?? 'real';
  o.enableTestAPI = opts.enableTestAPI ?? false;
  o.checkSharing = opts.checkSharing ?? process.env['CAPSTAN_CHECK_SHARING'] === '1';
  // As the CLI: undefined leaves it to the store (on for memory and sqlite, off for etcd3).
  o.console = opts.console;
  if (opts.simulate !== undefined && opts.simulate !== false) {
    o.simulate = true;
    if (opts.simulate !== true && opts.simulate.nodes !== undefined) o.simulateNodes = opts.simulate.nodes;
    if (opts.simulate !== true && opts.simulate.stages !== undefined) o.simulateStages = opts.simulate.stages;
    if (opts.simulate !== true && opts.simulate.podStopSeconds !== undefined)
      o.simulatePodStopSeconds = opts.simulate.podStopSeconds;
    if (opts.simulate !== true && opts.simulate.metrics !== undefined)
      o.simulateMetrics = opts.simulate.metrics;
    if (opts.simulate !== true && opts.simulate.terminatedPodGCThreshold !== undefined)
      o.terminatedPodGCThreshold = opts.simulate.terminatedPodGCThreshold;
  }
  o.logFormat = opts.log?.format ?? 'text';
  o.verbosity = opts.log?.verbosity ?? 0;
  return o;
}

/**
 * Starts an API server in this process and resolves once it answers /readyz. By default: the memory
 * store, HTTPS on a free loopback port with a generated CA, an admin token, a new temporary data dir.
 * Many servers may run side by side; none shares state with another.
 */
export function startCapstan(opts: StartCapstanOptions = {}): Promise<CapstanServer> {
  return start(opts, undefined);
}

/** A fork's options: the original's, less what must be its own. */
function forkOptions(opts: StartCapstanOptions): StartCapstanOptions {
  const own = { ...opts };
  delete own.dataDir;
  delete own.kubeconfigPath;
  delete own.port;
  return own;
}

/** What a fork starts from: the snapshot, and the original's data dir (its certificates and tokens). */
interface ForkSeed {
  readonly data: SnapshotData;
  readonly from: string;
}

/**
 * Copies the original's few small PKI files (none when it has no such directory), keeping any the
 * fork already has. Synchronously: fs.promises.cp took ~4 ms of a ~45 ms fork in thread-pool hops.
 */
function copyPki(from: string, to: string): void {
  let names: string[];
  try {
    names = readdirSync(from);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  mkdirSync(to, { recursive: true, mode: 0o700 });
  for (const name of names) {
    try {
      copyFileSync(join(from, name), join(to, name), constants.COPYFILE_EXCL);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

/**
 * A fork opens the snapshot's database image when the store has one (the memory and SQLite
 * backends): same revisions, nothing to write back, and the bootstrap finds its work done. Its watch
 * caches start from what the original's held when the snapshot was taken. It takes
 * the original's certificates and admin token too, rather than making new ones.
 */
function seedFork(seed: ForkSeed, o: ReturnType<typeof defaultServerRunOptions>, dataDir: string): boolean {
  copyPki(join(seed.from, 'pki'), join(dataDir, 'pki'));
  const [image, ...more] = seed.data.images;
  if (image === undefined || more.length > 0) return false;
  o.storage.seedImage = image;
  o.storage.seedCaches = seed.data.caches;
  return true;
}

async function start(opts: StartCapstanOptions, seed: ForkSeed | undefined): Promise<CapstanServer> {
  const ownDir = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'capstan-')));
  try {
    const o = runOptions(opts, dataDir);
    const seeded = seed !== undefined && seedFork(seed, o, dataDir);
    const options = await completeServerRunOptions(o, {
      logSink: opts.log?.sink ?? errorsOnly,
    });
    const bindAddress =
      opts.scheme === 'http' && opts.bindAddress === undefined ? '127.0.0.1' : options.bindAddress;
    const listener: ListenerConfig = {
      bindAddress,
      port: opts.port ?? 0,
      ...(options.tls === undefined ? {} : { tls: options.tls }),
    };
    const controlPlane = await ControlPlane.create({
      options,
      assemble: assembleBuiltinAPI,
      listeners: [listener],
      testAPI: opts.requestLog === undefined ? {} : { requestLog: opts.requestLog },
    });
    const testAPI = controlPlane.testAPI;
    if (testAPI === undefined) throw new Error('the control plane has no test API');
    try {
      await controlPlane.start();
      await controlPlane.ready;
      if (seed !== undefined && !seeded) await testAPI.snapshots.load(seed.data);
      if (opts.crds !== undefined && seed === undefined)
        await installCRDs(adminTarget(controlPlane.kubeConfig), opts.crds);
    } catch (err) {
      await controlPlane.close();
      throw err;
    }
    return {
      url: controlPlane.url,
      kubeconfigPath: controlPlane.kubeconfigPath,
      kubeConfig: controlPlane.kubeConfig,
      dataDir,
      clock: testAPI.clock,
      requests: (filter) => testAPI.requests(filter),
      clearRequests: () => {
        testAPI.clearRequests();
      },
      replay: (records, o) => replaySession(records, adminTarget(controlPlane.kubeConfig), o),
      faults: testAPI.faults,
      snapshot: () => testAPI.snapshot(),
      snapshots: () => testAPI.snapshots.list(),
      restore: (name) => testAPI.restore(name),
      compact: () => testAPI.compact(),
      fork: async (name) => start(forkOptions(opts), { data: testAPI.snapshots.data(name), from: dataDir }),
      installCRDs: (o) => installCRDs(adminTarget(controlPlane.kubeConfig), o),
      installWebhooks: (o) => installWebhooks(adminTarget(controlPlane.kubeConfig), o),
      consoleLoginURL: () => controlPlane.consoleLoginURL(),
      stop: async () => {
        await controlPlane.close();
        if (ownDir) await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    if (ownDir) await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
}
