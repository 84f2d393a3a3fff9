// Capstan as a library: start an API server in this process (many may run side by side; each has
// its own port, data dir, metrics and storage) and stop it again.
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
import type { StorageBackendName } from './server/options/storage-options.js';

export type { KubeConfig } from './server/kubeconfig.js';
export type { LogSink } from './server/logging/logger.js';

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
  readonly anonymousAuth?: boolean;
  /** --authorization-mode: `AlwaysAllow` (the default), `AlwaysDeny`, `RBAC`, in order. */
  readonly authorizationModes?: readonly string[];
  /** --enable-admission-plugins and --disable-admission-plugins (default: all of Capstan's on). */
  readonly enableAdmissionPlugins?: readonly string[];
  readonly disableAdmissionPlugins?: readonly string[];
  /** --token-auth-file: static bearer tokens (CSV: token,user,uid,"group1,group2"). */
  readonly tokenAuthFile?: string;
  /** --client-ca-file: client certificates signed by this CA authenticate (CN = user, O = groups). */
  readonly clientCAFile?: string;
  /** --runtime-config values: `api/all=false,apps/v1=true`. */
  readonly runtimeConfig?: readonly string[];
  readonly requestTimeoutMs?: number;
  /** --enable-garbage-collector: the garbage collector and the finalizers it honours (default true). */
  readonly enableGarbageCollector?: boolean;
  /** Where the admin kubeconfig goes; default <dataDir>/kubeconfig. */
  readonly kubeconfigPath?: string;
  /** Where log lines go; by default only errors, to stderr. */
  readonly log?: { readonly sink: LogSink; readonly format?: LogFormat; readonly verbosity?: number };
}

export interface CapstanServer {
  readonly url: string;
  readonly kubeconfigPath: string;
  readonly kubeConfig: KubeConfig;
  readonly dataDir: string;
  stop(): Promise<void>;
}

// Without a sink, only errors are shown (on stderr): a library should be quiet, not secretive.
const errorsOnly: LogSink = {
  write: (line: string) => (line.startsWith('E') ? process.stderr.write(line) : true),
};

function runOptions(opts: StartCapstanOptions, dataDir: string): ReturnType<typeof defaultServerRunOptions> {
  const o = defaultServerRunOptions();
  o.storage.backend = opts.storage ?? 'memory';
  o.storage.dataDir = dataDir;
  o.storage.etcdServers = [...(opts.etcdServers ?? [])];
  if (opts.etcdPrefix !== undefined) o.storage.prefix = opts.etcdPrefix;
  o.bindAddress = opts.bindAddress ?? '127.0.0.1';
  // The listener below replaces the flags' ports (which cannot say "a free port"); these only
  // choose which material completion prepares.
  o.securePort = opts.scheme === 'http' ? 0 : 6443;
  o.insecurePort = opts.scheme === 'http' ? 1 : 0;
  o.anonymousAuth = opts.anonymousAuth ?? false;
  o.authorizationModes = [...(opts.authorizationModes ?? [])];
  o.enableAdmissionPlugins = [...(opts.enableAdmissionPlugins ?? [])];
  o.disableAdmissionPlugins = [...(opts.disableAdmissionPlugins ?? [])];
  if (opts.tokenAuthFile !== undefined) o.tokenAuthFile = opts.tokenAuthFile;
  if (opts.clientCAFile !== undefined) o.clientCAFile = opts.clientCAFile;
  o.runtimeConfig = [...(opts.runtimeConfig ?? [])];
  if (opts.requestTimeoutMs !== undefined) o.requestTimeoutMs = opts.requestTimeoutMs;
  if (opts.kubeconfigPath !== undefined) o.kubeconfigOut = opts.kubeconfigPath;
  if (opts.enableGarbageCollector !== undefined)
    o.storage.enableGarbageCollection = opts.enableGarbageCollector;
  o.logFormat = opts.log?.format ?? 'text';
  o.verbosity = opts.log?.verbosity ?? 0;
  return o;
}

export async function startCapstan(opts: StartCapstanOptions = {}): Promise<CapstanServer> {
  const ownDir = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'capstan-')));
  try {
    const options = await completeServerRunOptions(runOptions(opts, dataDir), {
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
    });
    try {
      await controlPlane.start();
      await controlPlane.ready;
    } catch (err) {
      await controlPlane.close();
      throw err;
    }
    return {
      url: controlPlane.url,
      kubeconfigPath: controlPlane.kubeconfigPath,
      kubeConfig: controlPlane.kubeConfig,
      dataDir,
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
