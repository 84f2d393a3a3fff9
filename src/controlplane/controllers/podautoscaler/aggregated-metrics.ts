// The resource metrics API as kube-controller-manager reaches it through kube-apiserver: the
// APIService v1beta1.metrics.k8s.io names a Service whose server answers PodMetrics lists. This
// source asks that server the way the aggregator's proxy would (aggregator/proxy.ts: a ready
// endpoint of the Service, the caBundle, the front-proxy headers naming kube-controller-manager and
// the proxy's client certificate), and words a missing or unavailable API as client-go does.
import { request } from 'node:https';
import type { APIService } from '../../../api/apiregistration/v1/api-service.js';
import { isStatusError } from '../../../machinery/errors/index.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import { isGetter, isLister, type Getter, type Storage } from '../../../registry/rest/capabilities.js';
import { internalContext } from '../../../registry/rest/context.js';
import { EndpointServiceResolver } from '../../../registry/webhook/service-resolver.js';
import { proxyTarget } from '../../aggregator/availability.js';
import { AggregatorProxy, type ProxyClientCert, type ProxyTarget } from '../../aggregator/proxy.js';
import type { PodMetricsList, PodMetricsResult, ResourceMetricsSource } from './resource-metrics.js';

export const metricsAPIServiceName = 'v1beta1.metrics.k8s.io';

const what = '(get pods.metrics.k8s.io)';
const notFound = `the server could not find the requested resource ${what}`;
const unavailable = `the server is currently unable to handle the request ${what}`;
const requestTimeoutMs = 10_000;

export interface AggregatedResourceMetricsOptions {
  readonly groups: readonly APIGroupInfo[];
  readonly signal: AbortSignal;
  readonly proxyClientCert?: ProxyClientCert | undefined;
}

const storageOf = (groups: readonly APIGroupInfo[], group: string, resource: string): Storage | undefined =>
  groups.find((g) => g.group === group)?.versionedResourcesStorageMap['v1']?.[resource];

/** client-go's error for a response that is not 2xx. */
function responseError(code: number, body: string): string {
  try {
    const status = JSON.parse(body) as { kind?: string; message?: string };
    if (status.kind === 'Status' && status.message !== undefined) return status.message;
  } catch {
    // Not a Status: worded by the code below.
  }
  if (code === 404) return notFound;
  if (code === 503) return unavailable;
  if (code === 401) return 'Unauthorized';
  return `an error on the server (${JSON.stringify(body.trim())}) has prevented the request from succeeding ${what}`;
}

export class AggregatedResourceMetrics implements ResourceMetricsSource {
  readonly #o: AggregatedResourceMetricsOptions;
  readonly #proxy: AggregatorProxy;
  readonly #apiServices: Getter | undefined;
  readonly #resolver: EndpointServiceResolver | undefined;

  constructor(o: AggregatedResourceMetricsOptions) {
    this.#o = o;
    this.#proxy = new AggregatorProxy(o.proxyClientCert);
    const apiServices = storageOf(o.groups, 'apiregistration.k8s.io', 'apiservices');
    this.#apiServices = apiServices !== undefined && isGetter(apiServices) ? apiServices : undefined;
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

  async podMetrics(namespace: string, labelSelector: string): Promise<PodMetricsResult> {
    const apiService = await this.#apiService();
    if (apiService === undefined || (apiService.spec.service ?? null) === null)
      return { ok: false, error: notFound };
    const available = apiService.status?.conditions?.find((c) => c.type === 'Available');
    if (available?.status !== 'True') return { ok: false, error: unavailable };
    let target: ProxyTarget;
    try {
      target = await proxyTarget(apiService, this.#resolver, this.#o.signal);
    } catch {
      return { ok: false, error: unavailable };
    }
    const query = labelSelector === '' ? '' : `?labelSelector=${encodeURIComponent(labelSelector)}`;
    const path = `/apis/metrics.k8s.io/v1beta1/namespaces/${encodeURIComponent(namespace)}/pods${query}`;
    const answer = await this.#get(target, path);
    if (answer === undefined) return { ok: false, error: unavailable };
    if (answer.code < 200 || answer.code > 299)
      return { ok: false, error: responseError(answer.code, answer.body) };
    try {
      return { ok: true, items: (JSON.parse(answer.body) as PodMetricsList).items ?? [] };
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  }

  close(): void {
    this.#proxy.close();
  }

  async #apiService(): Promise<APIService | undefined> {
    if (this.#apiServices === undefined) return undefined;
    try {
      const ctx = internalContext({ signal: this.#o.signal });
      return (await this.#apiServices.get(ctx, metricsAPIServiceName, {})) as APIService;
    } catch (err) {
      if (isStatusError(err) && err.reason === 'NotFound') return undefined;
      throw err;
    }
  }

  /** One GET to the metrics server; undefined when it cannot be reached. */
  #get(target: ProxyTarget, path: string): Promise<{ code: number; body: string } | undefined> {
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
            resolve({ code: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
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
