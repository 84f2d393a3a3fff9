// What a Service's EndpointSlice holds (endpointslice reconciler's podToEndpoint and
// getEndpointPorts): one IPv4 endpoint per pod the selector matches that has an IP, with kube's
// ready/serving/terminating conditions, and the Service's ports with named target ports resolved
// against the pods' container ports.
import type { Pod } from '../../../api/core/v1/pod.js';
import type { Service } from '../../../api/core/v1/service.js';
import type { Endpoint, EndpointSlicePort } from '../../../api/discovery/v1/endpoint-slice.js';
import { isPodReady } from '../simulation/controller-ref.js';

export const serviceNameLabel = 'kubernetes.io/service-name';
export const managedByLabel = 'endpointslice.kubernetes.io/managed-by';
export const controllerName = 'endpointslice-controller.k8s.io';

/** ShouldPodBeInEndpoints: not finished, with an IP; terminating only while it still serves. */
export const belongsInSlice = (pod: Pod): boolean =>
  (pod.status?.podIP ?? '') !== '' && pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed';

export function endpointOf(pod: Pod): Endpoint {
  const ready = isPodReady(pod);
  const terminating = pod.metadata?.deletionTimestamp !== undefined;
  return {
    addresses: [pod.status?.podIP ?? ''],
    conditions: { ready: ready && !terminating, serving: ready, terminating },
    ...(pod.spec?.nodeName === undefined ? {} : { nodeName: pod.spec.nodeName }),
    targetRef: {
      kind: 'Pod',
      namespace: pod.metadata?.namespace ?? '',
      name: pod.metadata?.name ?? '',
      uid: pod.metadata?.uid ?? '',
    },
  };
}

/** The port a named targetPort means on this pod, or undefined when it has none by that name. */
function resolvePort(
  target: number | string | undefined,
  port: number,
  pod: Pod | undefined,
): number | undefined {
  if (target === undefined) return port;
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(target)) return Number(target);
  for (const c of pod?.spec?.containers ?? [])
    for (const p of c.ports ?? []) if (p.name === target) return p.containerPort;
  return undefined;
}

export function slicePorts(service: Service, pod: Pod | undefined): EndpointSlicePort[] {
  const ports: EndpointSlicePort[] = [];
  for (const sp of service.spec?.ports ?? []) {
    const port = resolvePort(sp.targetPort, sp.port, pod);
    if (port === undefined) continue;
    ports.push({
      name: sp.name ?? '',
      port,
      protocol: sp.protocol ?? 'TCP',
      ...(sp.appProtocol === undefined ? {} : { appProtocol: sp.appProtocol }),
    });
  }
  return ports;
}
