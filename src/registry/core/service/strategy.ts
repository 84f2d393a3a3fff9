// Service policy (pkg/registry/core/service/strategy.go): status is the status endpoint's, type
// changes wipe the fields the new type cannot have when the client left them as they were.
import type { Service } from '../../../api/core/v1/service.js';
import {
  FieldError,
  FieldPath,
  isDNS1123Subdomain,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { validateCoreObjectMetaUpdate } from '../namespace/finalizer-names.js';
import { setServiceDefaults } from './defaults.js';
import { isIPSloppy } from '../../../machinery/netip/sloppy.js';
import { isValidIPForLegacyField } from '../../networking/ip-validation.js';
import {
  externallyAccessible,
  needsClusterIP,
  needsHealthCheckNodePort,
  needsNodePort,
  sameStrings,
} from './service-helpers.js';
import { validateService, validateServiceUpdate } from './validation.js';
import { warningsForService, warningsForServiceStatus } from './warnings.js';

/** dropTypeDependentFields. */
export function dropTypeDependentFields(svc: Service, old: Service): void {
  const s = (svc.spec ??= {});
  const o = old.spec ?? {};
  if (needsClusterIP(old) && !needsClusterIP(svc)) {
    if (s.clusterIP === o.clusterIP && sameStrings(s.clusterIPs, o.clusterIPs)) {
      delete s.clusterIP;
      delete s.clusterIPs;
    }
    if (sameStrings(s.ipFamilies, o.ipFamilies)) delete s.ipFamilies;
    if (s.ipFamilyPolicy === o.ipFamilyPolicy) delete s.ipFamilyPolicy;
  }
  const nodePorts = (x: Service): string => JSON.stringify((x.spec?.ports ?? []).map((p) => p.nodePort ?? 0));
  if (needsNodePort(old) && !needsNodePort(svc) && nodePorts(svc) === nodePorts(old)) {
    for (const p of s.ports ?? []) delete p.nodePort;
  }
  if (
    needsHealthCheckNodePort(old) &&
    !needsHealthCheckNodePort(svc) &&
    s.healthCheckNodePort === o.healthCheckNodePort
  ) {
    delete s.healthCheckNodePort;
  }
  if (o.type === 'LoadBalancer' && s.type !== 'LoadBalancer') {
    if (
      s.allocateLoadBalancerNodePorts !== undefined &&
      s.allocateLoadBalancerNodePorts === o.allocateLoadBalancerNodePorts
    ) {
      delete s.allocateLoadBalancerNodePorts;
    }
    if (s.loadBalancerClass !== undefined && s.loadBalancerClass === o.loadBalancerClass)
      delete s.loadBalancerClass;
  }
  if (
    externallyAccessible(old) &&
    !externallyAccessible(svc) &&
    s.externalTrafficPolicy === o.externalTrafficPolicy
  ) {
    delete s.externalTrafficPolicy;
  }
}

export const serviceStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  defaultDecoded: setServiceDefaults,
  prepareForCreate: (_ctx, svc) => {
    svc.status = {};
    setServiceDefaults(svc);
  },
  validate: (_ctx, svc) => validateService(svc),
  warningsOnCreate: (_ctx, svc) => warningsForService(svc),
  prepareForUpdate: (_ctx, svc, old) => {
    svc.status = old.status ?? {};
    setServiceDefaults(svc);
    dropTypeDependentFields(svc, old);
  },
  validateUpdate: (_ctx, svc, old) => validateServiceUpdate(svc, old),
  warningsOnUpdate: (_ctx, svc) => warningsForService(svc),
} satisfies CreateStrategy<Service> & UpdateStrategy<Service>;

/**
 * ValidateLoadBalancerStatus: ingress only for load balancers (AllowServiceLBStatusOnNonLB is off and
 * locked in 1.33); each IP a legacy IP field, those the old status held passing as they are.
 */
function validateLoadBalancerStatus(svc: Service, old: Service): ErrorList {
  const errs: ErrorList = [];
  const path = FieldPath.of('status', 'loadBalancer', 'ingress');
  const ingresses = svc.status?.loadBalancer?.ingress ?? [];
  if (svc.spec?.type !== 'LoadBalancer' && ingresses.length > 0)
    return [FieldError.forbidden(path, "may only be used when `spec.type` is 'LoadBalancer'")];
  const existing = (old.status?.loadBalancer?.ingress ?? [])
    .map((ing) => ing.ip ?? '')
    .filter((ip) => ip !== '');
  ingresses.forEach((ing, i) => {
    const p = path.index(i);
    const ip = ing.ip ?? '';
    if (ip !== '') errs.push(...isValidIPForLegacyField(p.child('ip'), ip, existing));
    if (ing.ipMode !== undefined) {
      if (ip === '')
        errs.push(FieldError.forbidden(p.child('ipMode'), 'may not be specified when `ip` is not set'));
      else if (!['Proxy', 'VIP'].includes(ing.ipMode))
        errs.push(FieldError.notSupported(p.child('ipMode'), ing.ipMode, ['Proxy', 'VIP']));
    } else if (ip !== '') {
      errs.push(FieldError.required(p.child('ipMode'), 'must be specified when `ip` is set'));
    }
    const host = ing.hostname ?? '';
    if (host !== '') {
      for (const m of isDNS1123Subdomain(host)) errs.push(FieldError.invalid(p.child('hostname'), host, m));
      if (isIPSloppy(host))
        errs.push(FieldError.invalid(p.child('hostname'), host, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}

/** services/status: the spec stays as stored. */
export const serviceStatusStrategy = {
  ...serviceStrategy,
  // A status write never creates: creation allocates, and only the services endpoint does that.
  allowCreateOnUpdate: false,
  prepareForUpdate: (_ctx, svc, old) => {
    svc.spec = old.spec ?? {};
    setServiceDefaults(svc);
  },
  validateUpdate: (_ctx, svc, old) => [
    ...validateCoreObjectMetaUpdate(svc.metadata ?? {}, old.metadata ?? {}),
    ...validateLoadBalancerStatus(svc, old),
  ],
  warningsOnUpdate: (_ctx, svc) => warningsForServiceStatus(svc),
} satisfies UpdateStrategy<Service>;

/** Services are deleted at once. */
export const serviceDeleteStrategy = {} satisfies DeleteStrategy<Service>;
