// The core ("legacy") API group's storage (NewLegacyRESTStorage in
// pkg/registry/core/rest/storage_core.go): one storage per enabled resource of /api/v1.
import type { GroupVersionResource } from '../../machinery/schema/group-resource.js';
import { newConfigMapREST } from '../../registry/core/configmap/storage.js';
import { newEndpointsREST } from '../../registry/core/endpoint/storage.js';
import { newEventREST } from '../../registry/core/event/storage.js';
import { newNamespaceREST } from '../../registry/core/namespace/storage.js';
import { newPodConnecters } from '../../registry/core/pod/connect.js';
import { EphemeralContainersREST } from '../../registry/core/pod/ephemeral-containers.js';
import { ResizeREST } from '../../registry/core/pod/resize.js';
import { FeatureGates } from '../../machinery/featuregate/feature-gates.js';
import { EvictionREST, type DisruptionBudgets } from '../../registry/core/pod/eviction.js';
import { LegacyBindingREST } from '../../registry/core/pod/binding.js';
import { newPodREST } from '../../registry/core/pod/storage.js';
import { newSecretREST } from '../../registry/core/secret/storage.js';
import { newServiceAccountREST } from '../../registry/core/serviceaccount/storage.js';
import type { PortRange } from '../../registry/core/service/port-range.js';
import type { ServiceIPRanges } from '../../registry/core/service/service-ip-ranges.js';
import { repairEventRecorder } from '../../registry/core/service/repair-events.js';
import { newServiceREST } from '../../registry/core/service/storage.js';
import type { CreateRawStorage } from '../../storage/backend-factory/config.js';
import { TokenREST, type ServiceAccountTokenIssuer } from '../../registry/core/serviceaccount/token.js';
import { newLimitRangeREST } from '../../registry/core/limitrange/storage.js';
import { newPodTemplateREST } from '../../registry/core/podtemplate/storage.js';
import { newReplicationControllerREST } from '../../registry/core/replicationcontroller/storage.js';
import { newResourceQuotaREST } from '../../registry/core/resourcequota/storage.js';
import type { ComponentProbe } from '../../registry/core/componentstatus/probe.js';
import { ComponentStatusREST } from '../../registry/core/componentstatus/rest.js';
import { newNodeREST } from '../../registry/core/node/storage.js';
import { newPersistentVolumeREST } from '../../registry/core/persistentvolume/storage.js';
import { newPersistentVolumeClaimREST } from '../../registry/core/persistentvolumeclaim/storage.js';
import { clockFor, type RESTOptionsGetter } from '../../registry/generic/rest-options.js';
import type { ObjectCountMetric } from '../../registry/generic/store-definition.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import {
  isCreater,
  isGetter,
  isGracefulDeleter,
  isLister,
  isUpdater,
  type Getter,
  type Storage,
} from '../../registry/rest/capabilities.js';
import { newNodeProxyREST, newServiceProxyREST } from '../../registry/rest/no-kubelet-connecter.js';

/** What decides which resources are served (the merged `--runtime-config`). */
export interface APIResourceConfigSource {
  resourceEnabled(resource: GroupVersionResource): boolean;
}

export interface LegacyRESTStorageInit {
  readonly restOptionsGetter: RESTOptionsGetter;
  readonly resourceConfig: APIResourceConfigSource;
  readonly objectCountMetric?: ObjectCountMetric;
  /** Seconds events are kept (`--event-ttl`); one hour when unset. */
  readonly eventTTL?: number;
  /**
   * The raw storage factory the service IP and node port bitmaps are written through (kube's
   * NewRawStorage); services are not served without it.
   */
  readonly createRawStorage?: CreateRawStorage;
  /** --service-cluster-ip-range (10.0.0.0/24 when unset). */
  readonly serviceIPRanges?: ServiceIPRanges;
  /** --service-node-port-range (30000-32767 when unset). */
  readonly nodePortRange?: PortRange;
  /** Signs serviceaccounts/token; the subresource is not served without it. */
  readonly serviceAccountTokenIssuer?: ServiceAccountTokenIssuer;
  /** What componentstatuses reports on (the storage as `etcd-0`); none when unset. */
  readonly componentProbes?: readonly ComponentProbe[];
  /**
   * The policy group's PodDisruptionBudgets pods/eviction charges, looked up when a pod is evicted
   * (that group is built after this one); evictions are plain deletes while there are none.
   */
  readonly podDisruptionBudgets?: () => DisruptionBudgets | undefined;
  /** --feature-gates (kube 1.33's defaults when unset). */
  readonly featureGates?: FeatureGates;
}

const getterOf = (s: Storage | undefined): Getter | undefined =>
  s !== undefined && isGetter(s) ? s : undefined;

/** The subresources a kubelet would serve, for whichever of pods, nodes and services are served. */
function addConnecters(storage: Record<string, Storage>): void {
  const pods = getterOf(storage.pods);
  if (pods !== undefined) {
    const c = newPodConnecters(pods, getterOf(storage.nodes));
    Object.assign(storage, {
      'pods/log': c.log,
      'pods/exec': c.exec,
      'pods/attach': c.attach,
      'pods/portforward': c.portforward,
      'pods/proxy': c.proxy,
    });
  }
  const nodes = getterOf(storage.nodes);
  if (nodes !== undefined) storage['nodes/proxy'] = newNodeProxyREST(nodes);
  const services = getterOf(storage.services);
  if (services !== undefined) storage['services/proxy'] = newServiceProxyREST(services);
}

function addTokenREST(storage: Record<string, Storage>, issuer: ServiceAccountTokenIssuer | undefined): void {
  const serviceAccounts = getterOf(storage.serviceaccounts);
  if (issuer === undefined || serviceAccounts === undefined) return;
  const pods = getterOf(storage.pods);
  const secrets = getterOf(storage.secrets);
  storage['serviceaccounts/token'] = new TokenREST({
    serviceAccounts,
    issuer,
    ...(pods === undefined ? {} : { pods }),
    ...(secrets === undefined ? {} : { secrets }),
  });
}

/** policy/v1 poddisruptionbudgets and its status among built groups, for pods/eviction; none when not served. */
export function disruptionBudgetsIn(groups: readonly APIGroupInfo[]): DisruptionBudgets | undefined {
  const policy = groups.find((g) => g.group === 'policy')?.versionedResourcesStorageMap['v1'];
  const budgets = policy?.poddisruptionbudgets;
  const status = policy?.['poddisruptionbudgets/status'];
  if (budgets === undefined || status === undefined) return undefined;
  if (!isGetter(budgets) || !isLister(budgets) || !isUpdater(status)) return undefined;
  return { budgets, status };
}

const coreV1 = { group: '', version: 'v1' } as const;

/** The core group's APIGroupInfo: v1 with every enabled resource and its subresources. */
export async function newLegacyRESTStorage(init: LegacyRESTStorageInit): Promise<APIGroupInfo> {
  const enabled = (resource: string): boolean => init.resourceConfig.resourceEnabled({ ...coreV1, resource });
  const gates = init.featureGates ?? FeatureGates.defaults();
  const opts = {
    restOptionsGetter: init.restOptionsGetter,
    ...(init.objectCountMetric !== undefined ? { objectCountMetric: init.objectCountMetric } : {}),
    featureGates: gates,
  };
  const storage: Record<string, Storage> = {};
  try {
    if (enabled('namespaces')) {
      const ns = await newNamespaceREST(opts);
      storage.namespaces = ns.namespaces;
      storage['namespaces/status'] = ns.status;
      storage['namespaces/finalize'] = ns.finalize;
    }
    if (enabled('secrets')) storage.secrets = await newSecretREST(opts);
    if (enabled('configmaps')) storage.configmaps = await newConfigMapREST(opts);
    if (enabled('pods')) {
      const pods = await newPodREST(opts);
      storage.pods = pods.pods;
      storage['pods/status'] = pods.status;
      storage['pods/binding'] = pods.binding;
      storage.bindings = new LegacyBindingREST(pods.binding);
      storage['pods/ephemeralcontainers'] = new EphemeralContainersREST(pods.pods);
      if (gates.enabled('InPlacePodVerticalScaling')) storage['pods/resize'] = new ResizeREST(pods.pods);
      storage['pods/eviction'] = new EvictionREST({
        pods: pods.pods,
        ...(init.podDisruptionBudgets !== undefined ? { disruptionBudgets: init.podDisruptionBudgets } : {}),
      });
    }
    if (enabled('events')) {
      const eventTTL = init.eventTTL;
      storage.events = await newEventREST({ ...opts, ...(eventTTL !== undefined ? { eventTTL } : {}) });
    }
    if (enabled('serviceaccounts')) storage.serviceaccounts = await newServiceAccountREST(opts);
    if (enabled('endpoints')) storage.endpoints = await newEndpointsREST(opts);
    if (enabled('services') && init.createRawStorage !== undefined) {
      const endpoints = storage.endpoints;
      const events = storage.events;
      const clock = clockFor(opts.restOptionsGetter, { group: '', resource: 'events' });
      const svc = await newServiceREST({
        ...opts,
        createRawStorage: init.createRawStorage,
        ...(init.serviceIPRanges !== undefined ? { serviceIPRanges: init.serviceIPRanges } : {}),
        ...(init.nodePortRange !== undefined ? { nodePortRange: init.nodePortRange } : {}),
        ...(endpoints !== undefined && isGracefulDeleter(endpoints) ? { endpoints } : {}),
        ...(events !== undefined && isCreater(events)
          ? { recordEvent: repairEventRecorder({ events, now: () => clock.now() }) }
          : {}),
      });
      storage.services = svc.services;
      storage['services/status'] = svc.status;
    }
    if (enabled('podtemplates')) storage.podtemplates = await newPodTemplateREST(opts);
    if (enabled('replicationcontrollers')) {
      const rc = await newReplicationControllerREST(opts);
      storage.replicationcontrollers = rc.replicationControllers;
      storage['replicationcontrollers/status'] = rc.status;
      storage['replicationcontrollers/scale'] = rc.scale;
    }
    if (enabled('limitranges')) storage.limitranges = await newLimitRangeREST(opts);
    if (enabled('resourcequotas')) {
      const quota = await newResourceQuotaREST(opts);
      storage.resourcequotas = quota.resourceQuotas;
      storage['resourcequotas/status'] = quota.status;
    }
    if (enabled('nodes')) {
      const nodes = await newNodeREST(opts);
      storage.nodes = nodes.nodes;
      storage['nodes/status'] = nodes.status;
    }
    if (enabled('persistentvolumes')) {
      const pv = await newPersistentVolumeREST(opts);
      storage.persistentvolumes = pv.persistentVolumes;
      storage['persistentvolumes/status'] = pv.status;
    }
    if (enabled('persistentvolumeclaims')) {
      const pvc = await newPersistentVolumeClaimREST(opts);
      storage.persistentvolumeclaims = pvc.persistentVolumeClaims;
      storage['persistentvolumeclaims/status'] = pvc.status;
    }
    if (enabled('componentstatuses'))
      storage.componentstatuses = new ComponentStatusREST(init.componentProbes ?? []);
    // Last: they hang off whichever of pods, nodes, services and serviceaccounts are served.
    addConnecters(storage);
    addTokenREST(storage, init.serviceAccountTokenIssuer);
  } catch (err) {
    // Release what was built before the failure; the caller never sees it.
    await Promise.all(
      Object.values(storage).map(async (s) => {
        await s.destroy();
      }),
    );
    throw err;
  }
  return {
    group: '',
    prioritizedVersions: ['v1'],
    versionedResourcesStorageMap: Object.keys(storage).length > 0 ? { v1: storage } : {},
    deprecationWarnings: { v1: coreDeprecationWarnings },
  };
}

/**
 * deprecation.WarningMessage of the core kinds k8s.io/api/core/v1 marks deprecated
 * (APILifecycleDeprecated, APILifecycleReplacement in lifecycle.go), by resource.
 */
export const coreDeprecationWarnings: Readonly<Record<string, string>> = {
  componentstatuses: 'v1 ComponentStatus is deprecated in v1.19+',
  endpoints: 'v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice',
};
