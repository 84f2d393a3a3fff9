// startCapstan()'s options as the CLI's ServerRunOptions: what each option sets, and the defaults
// that differ from the CLI's for a server in a test's process (memory store, loopback, a free port).
import type { StartCapstanOptions } from './index.js';
import { defaultServerRunOptions } from './server/options/server-run-options.js';

export function startRunOptions(
  opts: StartCapstanOptions,
  dataDir: string,
): ReturnType<typeof defaultServerRunOptions> {
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
  o.enableAdmissionPlugins = [...(opts.enableAdmissionPlugins ?? [])];
  o.disableAdmissionPlugins = [...(opts.disableAdmissionPlugins ?? [])];
  if (opts.tokenAuthFile !== undefined) o.tokenAuthFile = opts.tokenAuthFile;
  if (opts.clientCAFile !== undefined) o.clientCAFile = opts.clientCAFile;
  if (opts.pkiDir !== undefined) o.replicas.pkiDir = opts.pkiDir;
  o.runtimeConfig = [...(opts.runtimeConfig ?? [])];
  if (opts.requestTimeoutMs !== undefined) o.requestTimeoutMs = opts.requestTimeoutMs;
  if (opts.kubeconfigPath !== undefined) o.kubeconfigOut = opts.kubeconfigPath;
  if (opts.enableGarbageCollector !== undefined)
    o.storage.enableGarbageCollection = opts.enableGarbageCollector;
  o.clockKind = opts.clock ?? 'real';
  o.enableTestAPI = opts.enableTestAPI ?? false;
  // As the CLI: undefined leaves it to the store (on for memory and sqlite, off for etcd3).
  o.console = opts.console;
  if (opts.simulate !== undefined && opts.simulate !== false) {
    o.simulate = true;
    if (opts.simulate !== true && opts.simulate.nodes !== undefined) o.simulateNodes = opts.simulate.nodes;
    if (opts.simulate !== true && opts.simulate.stages !== undefined) o.simulateStages = opts.simulate.stages;
  }
  o.logFormat = opts.log?.format ?? 'text';
  o.verbosity = opts.log?.verbosity ?? 0;
  return o;
}
