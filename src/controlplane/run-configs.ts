// The API resource config and the storage config the run options describe (kube's
// completedConfig: --runtime-config over the defaults, storagebackend.Config from the storage flags).
import type { CompletedServerRunOptions } from '../server/options/complete.js';
import {
  defaultAPIResourceConfigSource,
  mergeAPIResourceConfigs,
  parseRuntimeConfig,
  registryOf,
  validateRuntimeConfig,
  type ResourceConfig,
} from '../server/resource-config.js';
import type { StorageConfig } from '../storage/backend-factory/config.js';

/** --runtime-config over the defaults, with kube's validation errors. */
export function resourceConfigFor(o: CompletedServerRunOptions): ResourceConfig {
  const defaults = defaultAPIResourceConfigSource();
  const overrides = parseRuntimeConfig(o.runtimeConfig);
  const errs = validateRuntimeConfig(overrides, registryOf(defaults));
  if (errs[0] !== undefined) throw errs[0];
  return mergeAPIResourceConfigs(defaults, overrides);
}

/** storagebackend.Config from the storage flags. */
export function storageConfigFor(o: CompletedServerRunOptions): StorageConfig {
  const s = o.storage;
  return {
    type: s.backend,
    prefix: s.prefix,
    transport: {
      dataDir: s.dataDir,
      ...(s.seedImage === undefined ? {} : { image: s.seedImage }),
      serverList: s.etcdServers,
      ...(s.etcdCertFile === '' ? {} : { certFile: s.etcdCertFile }),
      ...(s.etcdKeyFile === '' ? {} : { keyFile: s.etcdKeyFile }),
      ...(s.etcdCaFile === '' ? {} : { trustedCAFile: s.etcdCaFile }),
      ...(s.etcdCaFile !== '' || s.etcdExtraCaFile === '' ? {} : { extraTrustedCAFile: s.etcdExtraCaFile }),
    },
    paging: true,
    compactionIntervalMs: s.compactionIntervalMs,
    clock: o.clock,
    cacheSeeds: o.cacheSeeds,
    recentWrites: o.recentWrites,
    // kube's cacher reports these with klog.Errorf.
    log: (message) => {
      o.logger.error(message);
    },
  };
}
