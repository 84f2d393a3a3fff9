// The core ("legacy") API group's storage (NewLegacyRESTStorage in
// pkg/registry/core/rest/storage_core.go): one storage per enabled resource of /api/v1.
import type { GroupVersionResource } from '../../machinery/schema/group-resource.js';
import { newConfigMapREST } from '../../registry/core/configmap/storage.js';
import { newEndpointsREST } from '../../registry/core/endpoint/storage.js';
import { newEventREST } from '../../registry/core/event/storage.js';
import { newNamespaceREST } from '../../registry/core/namespace/storage.js';
import { newPodREST } from '../../registry/core/pod/storage.js';
import { newSecretREST } from '../../registry/core/secret/storage.js';
import { newServiceAccountREST } from '../../registry/core/serviceaccount/storage.js';
import type { RESTOptionsGetter } from '../../registry/generic/rest-options.js';
import type { ObjectCountMetric } from '../../registry/generic/store-definition.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import type { Storage } from '../../registry/rest/capabilities.js';

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
}

const coreV1 = { group: '', version: 'v1' } as const;

/** The core group's APIGroupInfo: v1 with every enabled resource and its subresources. */
export async function newLegacyRESTStorage(init: LegacyRESTStorageInit): Promise<APIGroupInfo> {
  const enabled = (resource: string): boolean => init.resourceConfig.resourceEnabled({ ...coreV1, resource });
  const opts = {
    restOptionsGetter: init.restOptionsGetter,
    ...(init.objectCountMetric !== undefined ? { objectCountMetric: init.objectCountMetric } : {}),
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
    }
    if (enabled('events')) {
      const eventTTL = init.eventTTL;
      storage.events = await newEventREST({ ...opts, ...(eventTTL !== undefined ? { eventTTL } : {}) });
    }
    if (enabled('serviceaccounts')) storage.serviceaccounts = await newServiceAccountREST(opts);
    if (enabled('endpoints')) storage.endpoints = await newEndpointsREST(opts);
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
  };
}
