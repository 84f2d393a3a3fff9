// SetDefaults_Service (pkg/apis/core/v1/defaults.go): the v1 defaults that depend on other fields,
// applied to every service the registry sees (the schema sets the plain ones on the wire).
import type { Service } from '../../../api/core/v1/service.js';
import { externallyAccessible } from './service-helpers.js';

/** v1.DefaultClientIPServiceAffinitySeconds: three hours. */
export const defaultClientIPServiceAffinitySeconds = 10800;

export function setServiceDefaults(svc: Service): void {
  const spec = (svc.spec ??= {});
  if ((spec.sessionAffinity ?? '') === '') spec.sessionAffinity = 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (
    spec.sessionAffinity === 'ClientIP' &&
    spec.sessionAffinityConfig?.clientIP?.timeoutSeconds === undefined
  ) {
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: defaultClientIPServiceAffinitySeconds } };
  }
  if ((spec.type ?? '') === '') spec.type = 'ClusterIP';
  for (const p of spec.ports ?? []) {
    if ((p.protocol ?? '') === '') p.protocol = 'TCP';
    if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
  }
  if (externallyAccessible(svc) && (spec.externalTrafficPolicy ?? '') === '')
    spec.externalTrafficPolicy = 'Cluster';
  if (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP') {
    spec.internalTrafficPolicy ??= 'Cluster';
  }
  if (spec.type === 'LoadBalancer') spec.allocateLoadBalancerNodePorts ??= true;
  if (spec.type === 'LoadBalancer') {
    for (const ing of svc.status?.loadBalancer?.ingress ?? []) {
      if ((ing.ip ?? '') !== '') ing.ipMode ??= 'VIP';
    }
  }
}
