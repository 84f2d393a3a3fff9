// Where a webhook's clientConfig.service is reached (k8s.io/apiserver/pkg/util/proxy ResolveEndpoint,
// which kube-apiserver uses with --enable-aggregator-routing): one ready address of the Service's
// endpoints, on the endpoint port named as the Service port is. Capstan runs no kube-proxy, so a
// ClusterIP would lead nowhere; EndpointSlices are read first, then the Endpoints object.
import type { ServiceReference } from '../../api/admissionregistration/v1/webhook.js';
import type { Endpoints } from '../../api/core/v1/endpoints.js';
import type { Service, ServicePort } from '../../api/core/v1/service.js';
import { labelServiceName, type EndpointSlice } from '../../api/discovery/v1/endpoint-slice.js';
import { isStatusError, newServiceUnavailable } from '../../machinery/errors/index.js';
import type { Getter, Lister } from '../rest/capabilities.js';
import { internalContext, type RequestContext } from '../rest/context.js';
import { listerGet } from '../rest/lister-read.js';

export interface ResolvedEndpoint {
  readonly host: string;
  readonly port: number;
}

export interface ServiceResolver {
  resolve(ctx: RequestContext, ref: ServiceReference): Promise<ResolvedEndpoint>;
}

export interface EndpointServiceResolverOptions {
  readonly services: Getter;
  readonly endpointSlices?: Lister | undefined;
  readonly endpoints?: Getter | undefined;
  /** Picks one of several addresses (random by default, as kube does). */
  readonly pick?: (n: number) => number;
}

const isNotFound = (err: unknown): boolean => isStatusError(err) && err.reason === 'NotFound';

function fromSlices(slices: readonly EndpointSlice[], port: ServicePort): ResolvedEndpoint[] {
  const out: ResolvedEndpoint[] = [];
  for (const slice of slices) {
    const p = (slice.ports ?? []).find((sp) => (sp.name ?? '') === (port.name ?? ''));
    if (p?.port === undefined) continue;
    for (const e of slice.endpoints ?? []) {
      const address = e.addresses[0];
      if (e.conditions?.ready !== false && address !== undefined) out.push({ host: address, port: p.port });
    }
  }
  return out;
}

function fromEndpoints(ep: Endpoints, port: ServicePort): ResolvedEndpoint[] {
  const out: ResolvedEndpoint[] = [];
  for (const subset of ep.subsets ?? []) {
    const p = (subset.ports ?? []).find((sp) => (sp.name ?? '') === (port.name ?? ''));
    if (p === undefined) continue;
    for (const a of subset.addresses ?? []) out.push({ host: a.ip, port: p.port });
  }
  return out;
}

export class EndpointServiceResolver implements ServiceResolver {
  readonly #o: EndpointServiceResolverOptions;

  constructor(o: EndpointServiceResolverOptions) {
    this.#o = o;
  }

  async resolve(parent: RequestContext, ref: ServiceReference): Promise<ResolvedEndpoint> {
    const ctx = internalContext({ namespace: ref.namespace, parent });
    const service = await listerGet<Service>(this.#o.services, ctx, ref.name);
    const wanted = ref.port ?? 443;
    if (service.spec?.type === 'ExternalName' && service.spec.externalName !== undefined)
      return { host: service.spec.externalName, port: wanted };
    const port = (service.spec?.ports ?? []).find((p) => p.port === wanted);
    if (port === undefined)
      throw new Error(`no service port ${String(wanted)} found for service "${ref.name}"`);
    const candidates = await this.#candidates(ctx, ref.name, port);
    const pick = this.#o.pick ?? ((n: number) => Math.floor(Math.random() * n));
    const chosen = candidates[pick(candidates.length)];
    if (chosen === undefined) throw newServiceUnavailable(`no endpoints available for service "${ref.name}"`);
    return chosen;
  }

  async #candidates(ctx: RequestContext, name: string, port: ServicePort): Promise<ResolvedEndpoint[]> {
    const { endpointSlices, endpoints } = this.#o;
    if (endpointSlices !== undefined) {
      const list = await endpointSlices.list(ctx, {
        labelSelector: `${labelServiceName}=${name}`,
        resourceVersion: '0',
        readOnly: true,
      });
      const found = fromSlices(list.items as EndpointSlice[], port);
      if (found.length > 0) return found;
    }
    if (endpoints === undefined) return [];
    try {
      return fromEndpoints(await listerGet<Endpoints>(endpoints, ctx, name), port);
    } catch (err) {
      if (isNotFound(err)) return [];
      throw err;
    }
  }
}
