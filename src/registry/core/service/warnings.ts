// GetWarningsForService (pkg/api/service/warnings.go, 1.33) and the status strategy's warnings
// (pkg/registry/core/service/strategy.go): the deprecated topology-hints annotation, IPs and CIDRs in
// non-standard forms, and fields the service's type ignores.
import type { Service } from '../../../api/core/v1/service.js';
import { FieldPath } from '../../../machinery/validation/index.js';
import { warningsForCIDR, warningsForIP } from '../../networking/ip-warnings.js';
import { clusterIPNone } from './service-helpers.js';

const topologyHints = 'service.kubernetes.io/topology-aware-hints';
const topologyMode = 'service.kubernetes.io/topology-mode';
const spec = FieldPath.of('spec');

/** GetWarningsForService. */
export function warningsForService(svc: Service): string[] {
  const s = svc.spec ?? {};
  const warnings: string[] = [];
  if (svc.metadata?.annotations?.[topologyHints] !== undefined)
    warnings.push(`annotation ${topologyHints} is deprecated, please use ${topologyMode} instead`);
  const clusterIP = s.clusterIP ?? '';
  if (clusterIP !== '' && clusterIP !== clusterIPNone)
    (s.clusterIPs ?? []).forEach((ip, i) =>
      warnings.push(...warningsForIP(() => spec.child('clusterIPs').index(i), ip)),
    );
  (s.externalIPs ?? []).forEach((ip, i) =>
    warnings.push(...warningsForIP(() => spec.child('externalIPs').index(i), ip)),
  );
  const lbIP = s.loadBalancerIP ?? '';
  if (lbIP !== '') warnings.push(...warningsForIP(() => spec.child('loadBalancerIP'), lbIP));
  (s.loadBalancerSourceRanges ?? []).forEach((cidr, i) =>
    warnings.push(...warningsForCIDR(() => spec.child('loadBalancerSourceRanges').index(i), cidr)),
  );
  if (s.type === 'ExternalName' && (s.externalIPs ?? []).length > 0)
    warnings.push('spec.externalIPs is ignored when spec.type is "ExternalName"');
  if (s.type !== 'ExternalName' && (s.externalName ?? '') !== '')
    warnings.push('spec.externalName is ignored when spec.type is not "ExternalName"');
  return warnings;
}

/** The status strategy's WarningsOnUpdate: load balancer ingress IPs in non-standard forms. */
export function warningsForServiceStatus(svc: Service): string[] {
  const path = FieldPath.of('status', 'loadBalancer', 'ingress');
  const warnings: string[] = [];
  (svc.status?.loadBalancer?.ingress ?? []).forEach((ingress, i) => {
    const ip = ingress.ip ?? '';
    if (ip !== '') warnings.push(...warningsForIP(() => path.index(i), ip));
  });
  return warnings;
}
