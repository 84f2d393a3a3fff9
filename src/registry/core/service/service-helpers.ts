// Small predicates over a Service (pkg/api/service/util.go and the helpers of
// pkg/registry/core/service/storage/rest.go).
import type { Service } from '../../../api/core/v1/service.js';

export const clusterIPNone = 'None';

export const serviceTypeOf = (svc: Service): string => svc.spec?.type ?? 'ClusterIP';

/** Every type but ExternalName has cluster IPs (or is headless). */
export const needsClusterIP = (svc: Service): boolean => serviceTypeOf(svc) !== 'ExternalName';

export const needsNodePort = (svc: Service): boolean => {
  const t = serviceTypeOf(svc);
  return t === 'NodePort' || t === 'LoadBalancer';
};

/** NeedsHealthCheck: a LoadBalancer that keeps client IPs (externalTrafficPolicy Local). */
export const needsHealthCheckNodePort = (svc: Service): boolean =>
  serviceTypeOf(svc) === 'LoadBalancer' && svc.spec?.externalTrafficPolicy === 'Local';

/** Whether new node ports are allocated (a LoadBalancer may turn that off). */
export const shouldAllocateNodePorts = (svc: Service): boolean => {
  const t = serviceTypeOf(svc);
  if (t === 'NodePort') return true;
  if (t === 'LoadBalancer') return svc.spec?.allocateLoadBalancerNodePorts !== false;
  return false;
};

export const isHeadless = (svc: Service): boolean =>
  svc.spec?.clusterIP === clusterIPNone || svc.spec?.clusterIPs?.[0] === clusterIPNone;

/** ExternallyAccessible: NodePort, LoadBalancer, or ClusterIP with external IPs. */
export const externallyAccessible = (svc: Service): boolean =>
  needsNodePort(svc) || (serviceTypeOf(svc) === 'ClusterIP' && (svc.spec?.externalIPs ?? []).length > 0);

/** The node ports a service holds: every port's and the health check's. */
export function collectNodePorts(svc: Service): number[] {
  const ports = (svc.spec?.ports ?? []).map((p) => p.nodePort ?? 0).filter((p) => p !== 0);
  const hc = svc.spec?.healthCheckNodePort ?? 0;
  return hc !== 0 ? [...ports, hc] : ports;
}

export const sameStrings = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean =>
  JSON.stringify(a ?? []) === JSON.stringify(b ?? []);
