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
import { parseIP } from './ip-net.js';
import {
  externallyAccessible,
  needsClusterIP,
  needsHealthCheckNodePort,
  needsNodePort,
  sameStrings,
} from './service-helpers.js';
import { validateService, validateServiceUpdate } from './validation.js';

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
  warningsOnCreate: () => [],
  prepareForUpdate: (_ctx, svc, old) => {
    svc.status = old.status ?? {};
    setServiceDefaults(svc);
    dropTypeDependentFields(svc, old);
  },
  validateUpdate: (_ctx, svc, old) => validateServiceUpdate(svc, old),
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<Service> & UpdateStrategy<Service>;

/** ValidateLoadBalancerStatus. */
function validateLoadBalancerStatus(svc: Service): ErrorList {
  const errs: ErrorList = [];
  const path = FieldPath.of('status', 'loadBalancer', 'ingress');
  (svc.status?.loadBalancer?.ingress ?? []).forEach((ing, i) => {
    const p = path.index(i);
    const ip = ing.ip ?? '';
    if (ip !== '' && parseIP(ip) === undefined) {
      errs.push(
        FieldError.invalid(
          p.child('ip'),
          ip,
          'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
        ),
      );
    }
    if (ing.ipMode !== undefined) {
      if (ip === '')
        errs.push(FieldError.forbidden(p.child('ipMode'), 'may not be specified when `ip` is not set'));
      else if (!['Proxy', 'VIP'].includes(ing.ipMode))
        errs.push(FieldError.notSupported(p.child('ipMode'), ing.ipMode, ['Proxy', 'VIP']));
    } else if (ip !== '' && svc.spec?.type === 'LoadBalancer') {
      errs.push(FieldError.required(p.child('ipMode'), 'must be specified when `ip` is set'));
    }
    const host = ing.hostname ?? '';
    if (host !== '') {
      for (const m of isDNS1123Subdomain(host)) errs.push(FieldError.invalid(p.child('hostname'), host, m));
      if (parseIP(host) !== undefined)
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
    ...validateLoadBalancerStatus(svc),
  ],
} satisfies UpdateStrategy<Service>;

/** Services are deleted at once. */
export const serviceDeleteStrategy = {} satisfies DeleteStrategy<Service>;
