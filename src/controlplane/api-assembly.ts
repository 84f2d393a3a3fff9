// The built-in API along the seeds' chain (CreateKubeAPIServerConfig → InstallLegacyAPI):
// --runtime-config → resource config → StorageFactory → RESTOptionsGetter → storage providers
// (core) → APIGroupInfo[], which the server installs with the admission chain (the endpoints' API
// handler and OpenAPI), the built-in controllers, and the storage `etcd` check.
import { builtinScheme } from '../api/builtin-scheme.js';
import { admittedGroups } from '../admission/admitted-storage.js';
import { FieldManagers } from '../endpoints/fieldmanager/field-managers.js';
import { managedFieldsGroups } from '../endpoints/fieldmanager/managed-storage.js';
import { goZeroObject } from '../machinery/json/go-member-order.js';
import { defaultAdmissionChain } from '../admission/default-chain.js';
import { controllerHook, controllerHooks } from './controllers/controller-hook.js';
import { clusterControllers } from './cluster-controllers.js';
import { serviceAccountAuthentication } from './service-account-authentication.js';
import { customResourceOpenAPI } from './customresources/cr-openapi.js';
import { customResourceServing } from './customresources/serving.js';
import { Aggregator } from './aggregator/aggregator.js';
import { composeDynamicRoutes } from './aggregator/discovery-routes.js';
import { StorageFactoryRestOptionsFactory } from '../registry/generic/rest-options.js';
import type { APIGroupInfo } from '../registry/rest/api-group-info.js';
import { ControlPlaneAuthorization } from './authorization/rbac.js';
import { authorizationModesOf } from '../server/options/server-run-options.js';
import { webhookAuthorizersOf } from '../server/authorization/authorizer-config.js';
import { isCreater, type Creater } from '../registry/rest/capabilities.js';
import { EncryptionAtRest } from '../server/encryption/encryption-at-rest.js';
import type { EncryptionMetrics } from '../server/encryption/metrics.js';
import {
  namedCheck,
  readyzOnly,
  withCheckTimeout,
  type HealthChecker,
} from '../server/healthz/health-checker.js';
import { startStorageSizeMonitor } from '../server/metrics/storage-size-monitor.js';
import type { CompletedServerRunOptions } from '../server/options/complete.js';
import { newStorageFactory } from '../server/storage-factory.js';
import { forResource } from '../storage/backend-factory/config.js';
import { resourceConfigFor, storageConfigFor } from './run-configs.js';
import { BackendFactory } from '../storage/backend-factory/factory.js';
import { priorityClassHooks } from './bootstrap/priority-classes.js';
import { defaultServiceCIDRHooks } from './bootstrap/default-service-cidr.js';
import { flowControlFor } from './flowcontrol/hook.js';
import { componentProbes } from './component-probes.js';
import {
  disruptionBudgetsIn,
  newLegacyRESTStorage,
  type LegacyRESTStorageInit,
} from './storage-providers/core.js';
import type { DisruptionBudgets } from '../registry/core/pod/eviction.js';
import { namedGroupProviders } from './storage-providers/index.js';
import type { StorageProviderInit } from './storage-providers/provider.js';
import type { AssembleAPI } from './instance.js';
import { serviceNetworkingFor } from './bootstrap/kubernetes-service-config.js';
import { kubernetesEndpointsRemovalHooks, kubernetesServiceHooks } from './bootstrap/kubernetes-service.js';
import { replicaCoordination } from './replicas/replica-coordination.js';
import { simulatedMetricsGroup } from './controllers/simulation-metrics/group.js';
import { metricsReaderHooks } from './controllers/simulation-metrics/reader-role.js';

// kube's DefaultHealthcheckTimeout and DefaultReadinessTimeout: what a 0 timeout flag means.
const defaultStorageCheckTimeoutMs = 2000;

/** --event-ttl as the whole seconds the store's TTL takes; at least one. */
function eventTTLSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/**
 * kube's storage checks: `etcd` on /healthz, /livez and /readyz within --etcd-healthcheck-timeout,
 * and `etcd-readiness` on /readyz only within --etcd-readycheck-timeout. Each passes when the
 * storage answers a read of its current revision.
 */
function storageChecks(backends: BackendFactory, o: CompletedServerRunOptions): HealthChecker[] {
  const probe = forResource(storageConfigFor(o), { group: '', resource: 'namespaces' });
  const check = (name: string, timeoutMs: number): HealthChecker =>
    withCheckTimeout(
      namedCheck(name, async () => {
        await (await backends.backendFor(probe)).currentRevision();
      }),
      timeoutMs > 0 ? timeoutMs : defaultStorageCheckTimeoutMs,
    );
  return [
    check('etcd', o.storage.healthcheckTimeoutMs),
    readyzOnly(check('etcd-readiness', o.storage.readycheckTimeoutMs)),
  ];
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
async function buildGroups(
  init: StorageProviderInit,
  core: Pick<
    LegacyRESTStorageInit,
    'componentProbes' | 'serviceAccountTokenIssuer' | 'createRawStorage' | 'serviceIPRanges' | 'nodePortRange'
  > = {},
): Promise<APIGroupInfo[]> {
  const groups: APIGroupInfo[] = [];
  // pods/eviction (core) charges the policy group's budgets, which exist only once that is built.
  const budgets: { current: DisruptionBudgets | undefined } = { current: undefined };
  try {
    groups.push(
      await newLegacyRESTStorage({ ...init, ...core, podDisruptionBudgets: () => budgets.current }),
    );
    for (const provider of namedGroupProviders) {
      const group = await provider.newRESTStorage(init);
      if (group !== undefined) groups.push(group);
    }
  } catch (err) {
    await destroyGroups(groups);
    throw err;
  }
  budgets.current = disruptionBudgetsIn(groups);
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

export const assembleBuiltinAPI: AssembleAPI = async ({
  options,
  objectCountMetric,
  storageSizeMetric,
  encryptionMetrics,
  apiServiceMetric,
  admissionMetrics,
  workqueueMetrics,
  boundPort,
  tokenReview,
}) => {
  const resourceConfig = resourceConfigFor(options);
  const storageConfig = storageConfigFor(options);
  const scheme = builtinScheme();
  const storageFactory = newStorageFactory({
    storageConfig,
    apiResourceConfig: resourceConfig,
    etcdServersOverrides: options.storage.serversOverrides,
    scheme,
  });
  const encryption = encryptionAtRestFor(options, encryptionMetrics);
  if (encryption !== undefined) storageFactory.setResourceTransformers(encryption.resourceTransformers);
  const backends = new BackendFactory();
  const serviceAccounts = serviceAccountAuthentication(options.serviceAccountKeys, options.clock);
  const serviceNetworking = serviceNetworkingFor({
    ...options,
    ...options.replicas,
    ...(boundPort === undefined ? {} : { boundPort }),
  });
  const restOptionsGetter = new StorageFactoryRestOptionsFactory({
    options: {
      deleteCollectionWorkers: options.storage.deleteCollectionWorkers,
      enableGarbageCollection: options.storage.enableGarbageCollection,
      enableWatchCache: options.storage.enableWatchCache,
      defaultWatchCacheSize: options.storage.defaultWatchCacheSize,
      watchCacheSizes: options.storage.watchCacheSizes,
      countMetricPollPeriodMs: options.storage.countMetricPollPeriodMs,
    },
    storageFactory,
    createRawStorage: (config) => backends.create(config),
  });
  const authorization = new ControlPlaneAuthorization(
    authorizationModesOf(options),
    options.logger,
    webhookAuthorizersOf(options.authorizers, { logger: options.logger }),
  );
  let groups: APIGroupInfo[];
  let replicas;
  try {
    // Several replicas on one store: the identity check, leader election, the lease endpoint reconciler.
    const shared = forResource(storageConfig, { group: '', resource: 'namespaces' });
    replicas = await replicaCoordination(options, {
      backend: await backends.backendFor(shared),
      prefix: storageConfig.prefix,
    });
    groups = await buildGroups(
      {
        restOptionsGetter,
        resourceConfig,
        objectCountMetric,
        authorizer: authorization.authorizer,
        eventTTL: eventTTLSeconds(options.eventTTLMs),
        featureGates: options.featureGates,
        tokenReview: {
          ...(tokenReview === undefined ? {} : { authenticate: tokenReview }),
          apiAudiences: options.serviceAccountKeys.apiAudiences,
        },
      },
      {
        componentProbes: componentProbes({
          backends,
          storage: storageConfig,
          controllers: replicas.controllers,
          scheduler: options.simulate,
        }),
        serviceAccountTokenIssuer: serviceAccounts.issuer,
        createRawStorage: (config) => backends.create(config),
        serviceIPRanges: serviceNetworking.serviceIPRanges,
        nodePortRange: serviceNetworking.nodePortRange,
      },
    );
  } catch (err) {
    await backends.close();
    throw err;
  }
  // --simulate: metrics.k8s.io for kubectl top and the HPA controller (controllers/simulation-metrics).
  const metrics =
    options.simulate && options.simulateMetrics ? simulatedMetricsGroup(groups, options.clock) : undefined;
  if (metrics !== undefined) groups.push(metrics);
  encryption?.start();
  authorization.start(groups);
  // apiserver_storage_size_bytes, every --etcd-db-metric-poll-interval (kube's DB size monitor).
  const stopSizeMonitor = startStorageSizeMonitor({
    storages: () => backends.monitors(),
    intervalMs: storageSizeMetric === undefined ? 0 : options.storage.dbMetricPollIntervalMs,
    metric: storageSizeMetric ?? { set: () => undefined, delete: () => undefined },
    onError: (id, err) => {
      options.logger.error('Failed to get storage metrics', err, { storage_cluster_id: id });
    },
  });
  // Requests are admitted by the handlers; the built-in controllers, which kube runs over the API,
  // write through admitted storages (src/admission/admitted-storage.ts).
  const admission = defaultAdmissionChain(
    groups,
    {
      enable: options.enableAdmissionPlugins,
      disable: options.disableAdmissionPlugins,
      // Named on the command line: said plainly; merely on by default: said at -v=2.
      log: (message, values, named) => {
        if (named) options.logger.info(message, values);
        else options.logger.v(2, message, values);
      },
    },
    // The `authorizer` of webhook and policy expressions.
    { authorizer: authorization.authorizer, metrics: admissionMetrics },
  );
  // The server's own writers record their writes in managedFields, as kube's do through a client
  // named by its binary: kube-controller-manager's controllers (the simulated kubelet and scheduler
  // name themselves per write), and kube-apiserver's bootstrap.
  const fieldManagers = new FieldManagers(scheme, (type) => goZeroObject(scheme, type));
  const controllerGroups = managedFieldsGroups(admittedGroups(groups, admission), {
    fieldManagers,
    manager: 'kube-controller-manager',
  });
  const apiserverGroups = managedFieldsGroups(groups, { fieldManagers, manager: 'kube-apiserver' });
  const customResources = customResourceServing({
    groups,
    restOptionsGetter,
    scheme,
    admission,
    logger: options.logger,
    workqueueMetrics,
  });
  // kube-aggregator: APIServices, local ones registered, others proxied (src/controlplane/aggregator).
  const aggregator = new Aggregator({
    groups,
    customResources: customResources.routes,
    logger: options.logger,
    proxyClientCert: options.proxyClientCert,
    now: () => options.clock.now(),
    metrics: apiServiceMetric,
  });
  // kube-controller-manager's controllers, once per cluster (src/controlplane/cluster-controllers.ts).
  const controllers = clusterControllers({
    once: replicas.controllers,
    groups: controllerGroups,
    customResources: customResources.routes,
    admission,
    options,
    workqueueMetrics,
  });
  // API Priority and Fairness: the bootstrap configuration and the request classification.
  const flowControl = flowControlFor(groups, options.logger, () => options.clock.now());
  const namespaces = namespacesOf(apiserverGroups);
  const kubernetesEndpoints = replicas.endpointHooks(apiserverGroups, serviceNetworking);
  const bootstrapNetworking = { ...serviceNetworking, manageEndpoints: replicas.bootstrapManagesEndpoints };
  return {
    api: {
      groups,
      scheme,
      dynamicRoutes: composeDynamicRoutes(customResources.routes, aggregator),
      proxied: aggregator,
      admission,
      openAPIDynamic: customResourceOpenAPI(customResources.routes),
      openAPIAggregated: aggregator.openAPI,
      clock: options.clock,
    },
    ...(namespaces === undefined ? {} : { namespaces }),
    healthChecks: [...storageChecks(backends, options), ...(encryption?.healthChecks ?? [])],
    postStartHooks: {
      ...controllerHooks(controllers.byHook),
      // Ready once the local APIServices are registered and Available (kube's autoregister-completion).
      'apiservice-registration-controller': async (ctx) => {
        await controllerHook(aggregator)(ctx);
        await aggregator.firstSync;
      },
      ...priorityClassHooks(apiserverGroups),
      ...flowControl?.hooks,
      ...kubernetesServiceHooks(apiserverGroups, bootstrapNetworking),
      ...kubernetesEndpoints.postStart,
      ...defaultServiceCIDRHooks(apiserverGroups, { ...serviceNetworking, clock: options.clock }),
      ...authorization.postStartHooks(apiserverGroups),
      ...customResources.postStartHooks,
      ...(metrics === undefined ? {} : metricsReaderHooks(apiserverGroups)),
    },
    preShutdownHooks: {
      ...kubernetesEndpointsRemovalHooks(
        groups.find((g) => g.group === '')?.versionedResourcesStorageMap['v1'],
        bootstrapNetworking,
      ),
      ...kubernetesEndpoints.preShutdown,
    },
    tokenAuthenticators: [serviceAccounts.authenticator(groups)],
    authorizer: authorization.authorizer,
    ...(flowControl === undefined ? {} : { flowControl: flowControl.controller }),
    storageBackends: () => backends.openBackends(),
    close: async () => {
      await replicas.close();
      await aggregator.close();
      await controllers.close();
      await flowControl?.controller.close();
      await authorization.close();
      await customResources.close();
      admission.close();
      await destroyGroups(groups);
      await encryption?.close();
      await stopSizeMonitor();
      await backends.close();
    },
  };
};
