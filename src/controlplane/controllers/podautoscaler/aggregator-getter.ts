// The metrics APIs as kube-controller-manager reaches them through kube-apiserver: an APIService
// `<version>.<group>` names a Service whose server answers. This getter asks that server the way
// the aggregator's proxy would (aggregator/proxy.ts: a ready endpoint of the Service, the
// caBundle, the front-proxy headers naming kube-controller-manager and the proxy's client
// certificate), asks this server's own storage for a local one (the simulated metrics.k8s.io),
// answers for the aggregator when no APIService or no available one is there, and
// lists a group's versions in the order discovery lists them (aggregator/discovery-routes.ts).
import { request } from 'node:https';
import type { APIService } from '../../../api/apiregistration/v1/api-service.js';
import { isStatusError } from '../../../machinery/errors/index.js';
import { compareKubeAwareVersions } from '../../../registry/apiextensions/customresource/crd-version.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import {
  isGetter,
  isLister,
  type Getter,
  type Lister,
  type Storage,
} from '../../../registry/rest/capabilities.js';
import { internalContext } from '../../../registry/rest/context.js';
import { EndpointServiceResolver } from '../../../registry/webhook/service-resolver.js';
import { proxyTarget } from '../../aggregator/availability.js';
import { AggregatorProxy, type ProxyClientCert, type ProxyTarget } from '../../aggregator/proxy.js';
import { localAnswer } from './local-getter.js';
import type { APIAnswer, MetricsAPIGetter } from './metrics-api-getter.js';

const requestTimeoutMs = 10_000;

export interface AggregatorGetterOptions {
  readonly groups: readonly APIGroupInfo[];
  readonly signal: AbortSignal;
  readonly proxyClientCert?: ProxyClientCert | undefined;
}

const storageOf = (groups: readonly APIGroupInfo[], group: string, resource: string): Storage | undefined =>
  groups.find((g) => g.group === group)?.versionedResourcesStorageMap['v1']?.[resource];

export class AggregatorGetter implements MetricsAPIGetter {
  readonly #o: AggregatorGetterOptions;
  readonly #proxy: AggregatorProxy;
  readonly #apiServices: (Getter & Lister) | undefined;
  readonly #resolver: EndpointServiceResolver | undefined;

  constructor(o: AggregatorGetterOptions) {
    this.#o = o;
    this.#proxy = new AggregatorProxy(o.proxyClientCert);
    const apiServices = storageOf(o.groups, 'apiregistration.k8s.io', 'apiservices');
    this.#apiServices =
      apiServices !== undefined && isGetter(apiServices) && isLister(apiServices) ? apiServices : undefined;
    const services = storageOf(o.groups, '', 'services');
    const slices = storageOf(o.groups, 'discovery.k8s.io', 'endpointslices');
    const endpoints = storageOf(o.groups, '', 'endpoints');
    this.#resolver =
      services !== undefined && isGetter(services)
        ? new EndpointServiceResolver({
            services,
            endpointSlices: slices !== undefined && isLister(slices) ? slices : undefined,
            endpoints: endpoints !== undefined && isGetter(endpoints) ? endpoints : undefined,
          })
        : undefined;
  }

  async groupVersions(group: string): Promise<readonly string[]> {
    if (this.#apiServices === undefined) return [];
    const ctx = internalContext({ signal: this.#o.signal });
    const list = await this.#apiServices.list(ctx, {});
    return (list.items as unknown as APIService[])
      .filter((a) => a.spec.group === group)
      .sort(
        (a, b) =>
          b.spec.versionPriority - a.spec.versionPriority ||
          compareKubeAwareVersions(a.spec.version ?? '', b.spec.version ?? ''),
      )
      .map((a) => a.spec.version ?? '');
  }

  async get(gv: { group: string; version: string }, path: string): Promise<APIAnswer> {
    const apiService = await this.#apiService(`${gv.version}.${gv.group}`);
    if (apiService === undefined) return { failed: 'NotFound' };
    // A local APIService: this server answers (local-getter.ts), or serves no such resource.
    if ((apiService.spec.service ?? null) === null)
      return (
        (await localAnswer(this.#o.groups, { gv, path, signal: this.#o.signal })) ?? { failed: 'NotFound' }
      );
    const available = apiService.status?.conditions?.find((c) => c.type === 'Available');
    if (available?.status !== 'True') return { failed: 'ServiceUnavailable' };
    let target: ProxyTarget;
    try {
      target = await proxyTarget(apiService, this.#resolver, this.#o.signal);
    } catch {
      return { failed: 'ServiceUnavailable' };
    }
    return (await this.#get(target, path)) ?? { failed: 'ServiceUnavailable' };
  }

  close(): void {
    this.#proxy.close();
  }

  async #apiService(name: string): Promise<APIService | undefined> {
    if (this.#apiServices === undefined) return undefined;
    try {
      const ctx = internalContext({ signal: this.#o.signal });
      return (await this.#apiServices.get(ctx, name, {})) as APIService;
    } catch (err) {
      if (isStatusError(err) && err.reason === 'NotFound') return undefined;
      throw err;
    }
  }

  /** One GET to the server; undefined when it cannot be reached. */
  #get(target: ProxyTarget, path: string): Promise<APIAnswer | undefined> {
    return new Promise((resolve) => {
      const req = request(
        {
          ...this.#proxy.options(target),
          method: 'GET',
          path,
          timeout: requestTimeoutMs,
          signal: this.#o.signal,
          headers: {
            accept: 'application/json',
            host: `${target.serverName}:${String(target.port)}`,
            'x-remote-user': 'system:kube-controller-manager',
            'x-remote-group': 'system:authenticated',
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            resolve({
              code: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              contentType: res.headers['content-type'] ?? '',
            });
          });
          res.on('error', () => {
            resolve(undefined);
          });
        },
      );
      req.on('timeout', () => req.destroy());
      req.on('error', () => {
        resolve(undefined);
      });
      req.end();
    });
  }
}
