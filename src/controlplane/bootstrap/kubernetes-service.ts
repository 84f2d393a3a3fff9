// The `default/kubernetes` Service and its Endpoints (kube's bootstrap controller,
// pkg/controlplane/controller/kubernetesservice and reconcilers): the first IP of the service range,
// port 443 named https to this server's serving port, and Endpoints naming this server. Written
// through the registry with an internal context; retried until done or the server stops.
import { isIPv6 } from 'node:net';
import type { Endpoints } from '../../api/core/v1/endpoints.js';
import type { EndpointSlice } from '../../api/discovery/v1/endpoint-slice.js';
import type { Service } from '../../api/core/v1/service.js';
import type { KubeObject } from '../../api/meta.js';
import { reasonForError } from '../../machinery/errors/index.js';
import type { Creater, Getter, Storage, UpdateRequest, Updater } from '../../registry/rest/capabilities.js';
import { isCreater, isGetter, isUpdater } from '../../registry/rest/capabilities.js';
import { internalContext } from '../../registry/rest/context.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import type { HookContext, PostStartHook, PreShutdownHook } from '../../server/lifecycle/hooks.js';
import { retryUntilDone } from './retry.js';

export const kubernetesServiceHookName = 'bootstrap-controller';

export type Writable = Creater & Getter & Updater;

export interface KubernetesServiceInit {
  readonly services: Writable;
  readonly endpoints?: Writable;
  /** discovery.k8s.io/v1 endpointslices, when that API is served. */
  readonly endpointSlices?: Writable;
  /** The first address of the primary service range. */
  readonly serviceIP: string;
  /** The port the server serves on (the service's targetPort and the endpoint's port), once it listens. */
  readonly servingPort: () => number;
  /** This server's address as clients in the cluster reach it. */
  readonly endpointIP: string;
  /** False when the lease endpoint reconciler (or none, with `none`) keeps the endpoints. */
  readonly manageEndpoints?: boolean;
}

const labels = { component: 'apiserver', provider: 'kubernetes' };

export function kubernetesService(init: KubernetesServiceInit): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'kubernetes', namespace: 'default', labels },
    spec: {
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: init.servingPort() }],
      clusterIP: init.serviceIP,
      clusterIPs: [init.serviceIP],
      sessionAffinity: 'None',
      type: 'ClusterIP',
      ipFamilyPolicy: 'SingleStack',
    },
  };
}

export function kubernetesEndpoints(init: KubernetesServiceInit): Endpoints {
  return kubernetesEndpointsOf([
    {
      addresses: [{ ip: init.endpointIP }],
      ports: [{ name: 'https', port: init.servingPort(), protocol: 'TCP' }],
    },
  ]);
}

/** The `kubernetes` Endpoints with these subsets (one replica's, or the live replicas'). */
export function kubernetesEndpointsOf(subsets: NonNullable<Endpoints['subsets']>): Endpoints {
  return {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: {
      name: 'kubernetes',
      namespace: 'default',
      labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' },
    },
    subsets,
  };
}

export const isLoopback = (ip: string): boolean => ip === '::1' || ip.startsWith('127.');

/** The `kubernetes` EndpointSlice kube's reconciler keeps next to the Endpoints. */
export function kubernetesEndpointSlice(init: KubernetesServiceInit): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: 'kubernetes',
      namespace: 'default',
      labels: { 'kubernetes.io/service-name': 'kubernetes' },
    },
    addressType: isIPv6(init.endpointIP) ? 'IPv6' : 'IPv4',
    endpoints: [{ addresses: [init.endpointIP], conditions: { ready: true } }],
    ports: [{ name: 'https', port: init.servingPort(), protocol: 'TCP' }],
  };
}

const replace = (obj: KubeObject): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(obj) },
  options: {},
});

/**
 * Creates the object, or brings the fields this server owns back to what it wants: for the
 * service its ports (kube's getMasterServiceUpdateIfNeeded), for the endpoints the subsets.
 */
export async function ensure<T extends KubeObject>(
  storage: Writable,
  want: T,
  reconcile: (current: T, want: T) => T | undefined,
): Promise<void> {
  const ctx = internalContext({ namespace: 'default' });
  const name = want.metadata?.name ?? '';
  try {
    const current = (await storage.get(ctx, name, {})) as T;
    const next = reconcile(current, want);
    if (next !== undefined) await storage.update(ctx, name, replace(next));
    return;
  } catch (err) {
    if (reasonForError(err) !== 'NotFound') throw err;
  }
  await storage.create(ctx, want, { options: {} });
}

const reconcileService = (current: Service, want: Service): Service | undefined => {
  const same =
    JSON.stringify(current.spec?.ports) === JSON.stringify(want.spec?.ports) &&
    current.spec?.type === 'ClusterIP';
  return same
    ? undefined
    : { ...current, spec: { ...current.spec, ports: want.spec?.ports ?? [], type: 'ClusterIP' } };
};

export const reconcileEndpointSlice = (
  current: EndpointSlice,
  want: EndpointSlice,
): EndpointSlice | undefined =>
  JSON.stringify([current.endpoints, current.ports]) === JSON.stringify([want.endpoints, want.ports])
    ? undefined
    : { ...current, endpoints: want.endpoints ?? [], ports: want.ports ?? [] };

export const reconcileEndpoints = (current: Endpoints, want: Endpoints): Endpoints | undefined =>
  JSON.stringify(current.subsets) === JSON.stringify(want.subsets)
    ? undefined
    : { ...current, subsets: want.subsets ?? [] };

// AlreadyExists or Conflict: another server wrote it meanwhile; the next attempt looks again.
const retry = (what: string, ctx: HookContext, fn: () => Promise<void>): Promise<void> =>
  retryUntilDone(ctx, { message: `unable to reconcile the ${what}, retrying` }, fn);

export function kubernetesServiceHook(init: KubernetesServiceInit): PostStartHook {
  return async (ctx) => {
    await retry('kubernetes service', ctx, () =>
      ensure(init.services, kubernetesService(init), reconcileService),
    );
    if (init.manageEndpoints === false) return;
    const { endpoints, endpointSlices } = init;
    if (endpoints !== undefined)
      await retry('kubernetes endpoints', ctx, () =>
        ensure(endpoints, kubernetesEndpoints(init), reconcileEndpoints),
      );
    // EndpointSlices refuse loopback addresses (kube's validation), which a server bound to all
    // interfaces advertises here; then only the Endpoints name this server.
    if (endpointSlices !== undefined && !isLoopback(init.endpointIP))
      await retry('kubernetes endpoint slice', ctx, () =>
        ensure(endpointSlices, kubernetesEndpointSlice(init), reconcileEndpointSlice),
      );
  };
}

/**
 * The pre-shutdown half (kube's RemoveEndpoints): this server's address leaves the `kubernetes`
 * Endpoints, so clients stop being sent to a server that is going away. Best effort.
 */
export function kubernetesEndpointsRemovalHook(init: {
  endpoints: Writable;
  endpointIP: string;
}): PreShutdownHook {
  return async () => {
    const ctx = internalContext({ namespace: 'default' });
    try {
      const current = (await init.endpoints.get(ctx, 'kubernetes', {})) as Endpoints;
      const subsets = (current.subsets ?? [])
        .map((ss) => ({ ...ss, addresses: (ss.addresses ?? []).filter((a) => a.ip !== init.endpointIP) }))
        .filter((ss) => ss.addresses.length > 0);
      if (JSON.stringify(subsets) === JSON.stringify(current.subsets ?? [])) return;
      await init.endpoints.update(ctx, 'kubernetes', replace({ ...current, subsets }));
    } catch {
      // Gone already, or storage is down: nothing left to take this server out of.
    }
  };
}

const writable = (s: Storage | undefined): Writable | undefined =>
  s !== undefined && isCreater(s) && isGetter(s) && isUpdater(s) ? s : undefined;

/** The hook for a server whose core group serves services, by name; none otherwise. */
export function kubernetesServiceHooks(
  groups: readonly APIGroupInfo[],
  at: Omit<KubernetesServiceInit, 'services' | 'endpoints' | 'endpointSlices'>,
): Record<string, PostStartHook> {
  const core = groups.find((g) => g.group === '')?.versionedResourcesStorageMap['v1'];
  const services = writable(core?.services);
  if (services === undefined) return {};
  const endpoints = writable(core?.endpoints);
  const slices = groups.find((g) => g.group === 'discovery.k8s.io')?.versionedResourcesStorageMap['v1'];
  const endpointSlices = writable(slices?.endpointslices);
  return {
    [kubernetesServiceHookName]: kubernetesServiceHook({
      ...at,
      services,
      ...(endpoints === undefined ? {} : { endpoints }),
      ...(endpointSlices === undefined ? {} : { endpointSlices }),
    }),
  };
}

/** The pre-shutdown hook taking this server out of the `kubernetes` Endpoints, by name; none otherwise. */
export function kubernetesEndpointsRemovalHooks(
  core: Readonly<Record<string, Storage>> | undefined,
  at: Pick<KubernetesServiceInit, 'endpointIP' | 'manageEndpoints'>,
): Record<string, PreShutdownHook> {
  const endpoints = writable(core?.endpoints);
  if (at.manageEndpoints === false) return {};
  if (writable(core?.services) === undefined || endpoints === undefined) return {};
  return {
    [kubernetesServiceHookName]: kubernetesEndpointsRemovalHook({ endpoints, endpointIP: at.endpointIP }),
  };
}
