// The built-in API along the seeds' chain (CreateKubeAPIServerConfig → InstallLegacyAPI):
// --runtime-config → resource config → StorageFactory → RESTOptionsGetter → storage providers
// (core) → APIGroupInfo[] → the endpoints' API handler (+ OpenAPI), and the storage `etcd` check.
import { builtinScheme } from '../api/builtin-scheme.js';
import { createAPIHandler } from '../endpoints/api-handler.js';
import { admittedGroups } from '../server/admission/admitting-storage.js';
import { defaultAdmissionChain } from '../server/admission/default-chain.js';
import {
  namespaceControllerHook,
  namespaceControllerHookName,
} from './controllers/namespace/namespace-controller-hook.js';
import { newNamespaceController } from './controllers/namespace/namespace-controller.js';
import { newOpenAPIService } from '../endpoints/openapi/index.js';
import { StorageFactoryRestOptionsFactory } from '../registry/generic/rest-options.js';
import type { APIGroupInfo } from '../registry/rest/api-group-info.js';
import { isCreater, type Creater } from '../registry/rest/capabilities.js';
import { EncryptionAtRest } from '../server/encryption/encryption-at-rest.js';
import type { EncryptionMetrics } from '../server/encryption/metrics.js';
import { namedCheck, withCheckTimeout, type HealthChecker } from '../server/healthz/health-checker.js';
import type { CompletedServerRunOptions } from '../server/options/complete.js';
import {
  defaultAPIResourceConfigSource,
  mergeAPIResourceConfigs,
  parseRuntimeConfig,
  registryOf,
  validateRuntimeConfig,
  type ResourceConfig,
} from '../server/resource-config.js';
import { newStorageFactory } from '../server/storage-factory.js';
import { forResource, type StorageConfig } from '../storage/backend-factory/config.js';
import { BackendFactory } from '../storage/backend-factory/factory.js';
import { newLegacyRESTStorage } from './storage-providers/core.js';
import { namedGroupProviders } from './storage-providers/index.js';
import type { StorageProviderInit } from './storage-providers/provider.js';
import type { AssembleAPI } from './instance.js';

// kube's --etcd-healthcheck-timeout default.
const storageCheckTimeoutMs = 2000;

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
      serverList: s.etcdServers,
      ...(s.etcdCertFile === '' ? {} : { certFile: s.etcdCertFile }),
      ...(s.etcdKeyFile === '' ? {} : { keyFile: s.etcdKeyFile }),
      ...(s.etcdCaFile === '' ? {} : { trustedCAFile: s.etcdCaFile }),
    },
    paging: true,
    compactionIntervalMs: s.compactionIntervalMs,
  };
}

/** kube's `etcd` check: the storage answers a read of its current revision. */
function storageCheck(backends: BackendFactory, config: StorageConfig): HealthChecker {
  const probe = forResource(config, { group: '', resource: 'namespaces' });
  return withCheckTimeout(
    namedCheck('etcd', async () => {
      await (await backends.backendFor(probe)).currentRevision();
    }),
    storageCheckTimeoutMs,
  );
}

const namespacesOf = (groups: readonly APIGroupInfo[]): Creater | undefined => {
  const storage = groups.find((g) => g.group === '')?.versionedResourcesStorageMap['v1']?.['namespaces'];
  return storage !== undefined && isCreater(storage) ? storage : undefined;
};

/** --encryption-provider-config (already loaded and checked by option completion), if given. */
function encryptionAtRestFor(
  options: CompletedServerRunOptions,
  metrics: EncryptionMetrics | undefined,
): EncryptionAtRest | undefined {
  if (options.encryptionConfig === undefined) return undefined;
  return new EncryptionAtRest({
    path: options.storage.encryptionProviderConfigFilepath,
    loaded: options.encryptionConfig,
    automaticReload: options.storage.encryptionProviderConfigAutomaticReload,
    logger: options.logger,
    ...(metrics === undefined ? {} : { metrics }),
  });
}

/** The core group, then every named group with an enabled resource; on failure nothing is left open. */
async function buildGroups(init: StorageProviderInit): Promise<APIGroupInfo[]> {
  const groups: APIGroupInfo[] = [];
  try {
    groups.push(await newLegacyRESTStorage(init));
    for (const provider of namedGroupProviders) {
      const group = await provider.newRESTStorage(init);
      if (group !== undefined) groups.push(group);
    }
  } catch (err) {
    await destroyGroups(groups);
    throw err;
  }
  return groups;
}

/** Destroys every storage once (versions of a group may share one). */
async function destroyGroups(groups: readonly APIGroupInfo[]): Promise<void> {
  const storages = new Set(
    groups.flatMap((g) => Object.values(g.versionedResourcesStorageMap).flatMap((m) => Object.values(m))),
  );
  await Promise.all(
    [...storages].map(async (s) => {
      await s.destroy();
    }),
  );
}

export const assembleBuiltinAPI: AssembleAPI = async ({ options, objectCountMetric, encryptionMetrics }) => {
  const resourceConfig = resourceConfigFor(options);
  const storageConfig = storageConfigFor(options);
  const storageFactory = newStorageFactory({
    storageConfig,
    apiResourceConfig: resourceConfig,
    etcdServersOverrides: options.storage.serversOverrides,
  });
  const encryption = encryptionAtRestFor(options, encryptionMetrics);
  if (encryption !== undefined) storageFactory.setResourceTransformers(encryption.resourceTransformers);
  const backends = new BackendFactory();
  const restOptionsGetter = new StorageFactoryRestOptionsFactory({
    options: {
      deleteCollectionWorkers: options.storage.deleteCollectionWorkers,
      enableWatchCache: options.storage.enableWatchCache,
      defaultWatchCacheSize: options.storage.defaultWatchCacheSize,
      watchCacheSizes: options.storage.watchCacheSizes,
    },
    storageFactory,
    createRawStorage: (config) => backends.create(config),
  });
  let groups: APIGroupInfo[];
  try {
    groups = await buildGroups({ restOptionsGetter, resourceConfig, objectCountMetric });
  } catch (err) {
    await backends.close();
    throw err;
  }
  encryption?.start();
  const scheme = builtinScheme();
  // Requests and built-in controllers alike go through admission, as kube's controllers use the API.
  const admission = defaultAdmissionChain(groups);
  const served = admittedGroups(groups, admission);
  const namespaceController = newNamespaceController(served, { logger: options.logger });
  const api = createAPIHandler({
    groups: served,
    scheme,
    openapi: newOpenAPIService({ scheme, groups: served }),
    logError: (message, err) => {
      options.logger.error(message, err);
    },
  });
  const namespaces = namespacesOf(groups);
  return {
    handler: (scope) => api.handle(scope.req, scope.res, { user: scope.user, signal: scope.abort.signal }),
    ...(namespaces === undefined ? {} : { namespaces }),
    healthChecks: [storageCheck(backends, storageConfig), ...(encryption?.healthChecks ?? [])],
    postStartHooks:
      namespaceController === undefined
        ? {}
        : { [namespaceControllerHookName]: namespaceControllerHook(namespaceController) },
    close: async () => {
      await namespaceController?.close();
      admission.close();
      await destroyGroups(groups);
      await encryption?.close();
      await backends.close();
    },
  };
};
