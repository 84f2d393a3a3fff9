// The Available condition of an APIService with a service (kube-aggregator's remote
// AvailableConditionController, pkg/controllers/status/remote): the Service must exist, listen on
// the port (ClusterIP services) and have a ready endpoint, and the server must answer a GET of its
// group version's discovery within 5 s, asked as system:kube-aggregator in system:masters. The
// discovery answer is kept: it is what discovery here serves for the group version.
import { request } from 'node:https';
import type { APIService, APIServiceCondition } from '../../api/apiregistration/v1/api-service.js';
import type { Service } from '../../api/core/v1/service.js';
import type { APIResource } from '../../api/meta/v1/discovery.js';
import { isStatusError } from '../../machinery/errors/index.js';
import type { ServiceResolver } from '../../registry/webhook/service-resolver.js';
import type { Getter } from '../../registry/rest/capabilities.js';
import { internalContext } from '../../registry/rest/context.js';
import { goDialError, type AggregatorProxy, type ProxyTarget } from './proxy.js';

export interface AvailabilityDeps {
  readonly services: Getter | undefined;
  readonly resolver: ServiceResolver | undefined;
  readonly proxy: AggregatorProxy;
}

/** The outcome of one check: the condition without its time, and the discovery on success. */
export interface AvailabilityResult {
  readonly condition: Omit<APIServiceCondition, 'lastTransitionTime'>;
  readonly resources?: readonly APIResource[];
}

const discoveryTimeoutMs = 5000;

const unavailable = (reason: string, message: string, status = 'False'): AvailabilityResult => ({
  condition: { type: 'Available', status, reason, message },
});

/** Where the APIService's requests go: a ready endpoint of its Service, named as kube names it. */
export async function proxyTarget(
  apiService: APIService,
  resolver: ServiceResolver | undefined,
  signal?: AbortSignal,
): Promise<ProxyTarget> {
  const ref = apiService.spec.service ?? null;
  if (ref === null || resolver === undefined) throw new Error('service unavailable');
  const namespace = ref.namespace ?? '';
  const name = ref.name ?? '';
  const endpoint = await resolver.resolve(internalContext(signal === undefined ? {} : { signal }), {
    namespace,
    name,
    port: ref.port ?? 443,
  });
  const caBundle = apiService.spec.caBundle ?? '';
  return {
    host: endpoint.host,
    port: endpoint.port,
    serverName: `${name}.${namespace}.svc`,
    ...(caBundle === '' ? {} : { ca: Buffer.from(caBundle, 'base64').toString('utf8') }),
    insecureSkipTLSVerify: apiService.spec.insecureSkipTLSVerify ?? false,
  };
}

async function serviceOf(
  deps: AvailabilityDeps,
  namespace: string,
  name: string,
): Promise<{ service: Service } | { failed: AvailabilityResult }> {
  try {
    if (deps.services === undefined) throw new Error('services are not served');
    return { service: (await deps.services.get(internalContext({ namespace }), name, {})) as Service };
  } catch (err) {
    if (isStatusError(err) && err.reason === 'NotFound')
      return {
        failed: unavailable(
          'ServiceNotFound',
          `service/${name} in ${JSON.stringify(namespace)} is not present`,
        ),
      };
    const why = err instanceof Error ? err.message : String(err);
    return {
      failed: unavailable(
        'ServiceAccessError',
        `service/${name} in ${JSON.stringify(namespace)} cannot be checked due to: ${why}`,
        'Unknown',
      ),
    };
  }
}

/** One check of `apiService` (which has a service). */
export async function checkAvailability(
  apiService: APIService,
  deps: AvailabilityDeps,
): Promise<AvailabilityResult> {
  const ref = apiService.spec.service ?? null;
  if (ref === null) return { condition: { type: 'Available', status: 'True', reason: 'Local', message: '' } };
  const namespace = ref.namespace ?? '';
  const name = ref.name ?? '';
  const port = ref.port ?? 443;
  const found = await serviceOf(deps, namespace, name);
  if ('failed' in found) return found.failed;
  const service = found.service;
  const type = service.spec?.type ?? 'ClusterIP';
  let portName = '';
  if (type === 'ClusterIP') {
    const servicePort = (service.spec?.ports ?? []).find((p) => p.port === port);
    if (servicePort === undefined)
      return unavailable(
        'ServicePortError',
        `service/${name} in ${JSON.stringify(namespace)} is not listening on port ${String(port)}`,
      );
    portName = servicePort.name ?? '';
  }
  let target: ProxyTarget;
  try {
    target = await proxyTarget(apiService, deps.resolver);
  } catch {
    return unavailable(
      'MissingEndpoints',
      `endpointslices for service/${name} in ${JSON.stringify(namespace)} have no addresses with port name ${JSON.stringify(portName)}`,
    );
  }
  const path =
    apiService.metadata?.name === 'v1.'
      ? `/api/${apiService.spec.version ?? ''}`
      : `/apis/${apiService.spec.group ?? ''}/${apiService.spec.version ?? ''}`;
  const url = `https://${target.host.includes(':') ? `[${target.host}]` : target.host}:${String(target.port)}${path}`;
  try {
    const resources = await discover(deps.proxy, { ...target, insecureSkipTLSVerify: true }, { path, url });
    return {
      condition: { type: 'Available', status: 'True', reason: 'Passed', message: 'all checks passed' },
      resources,
    };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return unavailable('FailedDiscoveryCheck', `failing or missing response from ${url}: ${why}`);
  }
}

/** GETs the discovery document; its resources, or an Error worded as Go's client words it. */
function discover(
  proxy: AggregatorProxy,
  target: ProxyTarget,
  at: { path: string; url: string },
): Promise<readonly APIResource[]> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        ...proxy.options(target),
        method: 'GET',
        path: at.path,
        headers: {
          accept: 'application/json',
          'x-remote-user': 'system:kube-aggregator',
          'x-remote-group': 'system:masters',
        },
        signal: AbortSignal.timeout(discoveryTimeoutMs),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const code = res.statusCode ?? 0;
          if (code < 200 || code >= 300) {
            reject(new Error(`bad status from ${at.url}: ${String(code)}`));
            return;
          }
          try {
            const list = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resources?: APIResource[] };
            resolve(list.resources ?? []);
          } catch {
            resolve([]);
          }
        });
      },
    );
    req.on('error', (err) => {
      const reason =
        err.name === 'AbortError' || err.name === 'TimeoutError'
          ? 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)'
          : goDialError(err, target);
      reject(new Error(`Get ${JSON.stringify(at.url)}: ${reason}`));
    });
    req.end();
  });
}
