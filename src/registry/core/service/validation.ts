// ValidateService, ValidateServiceUpdate and ValidateServiceClusterIPsRelatedFields
// (pkg/apis/core/validation/validation.go), the parts Capstan's Service fields need.
import type { Service } from '../../../api/core/v1/service.js';
import {
  FieldError,
  FieldPath,
  isDNS1123Subdomain,
  nameIsDNS1035Label,
  omitValue,
  validateLabels,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { validateCoreObjectMeta, validateCoreObjectMetaUpdate } from '../namespace/finalizer-names.js';
import { sloppyIPFamily } from '../../../machinery/netip/sloppy.js';
import { isValidCIDRForLegacyField, isValidIPForLegacyField } from '../../networking/ip-validation.js';
import { validateEndpointIP } from '../endpoint/endpoint-ip.js';
import { goServicePortKey, validateServicePort } from './port-validation.js';
import {
  clusterIPNone,
  externallyAccessible,
  isHeadless,
  needsHealthCheckNodePort,
} from './service-helpers.js';

const serviceTypes = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const affinities = ['ClientIP', 'None'];
const families = ['IPv4', 'IPv6'];
const familyPolicies = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const trafficPolicies = ['Cluster', 'Local'];
const kubeletPort = 10250;

const spec = FieldPath.of('spec');

/** ValidateServiceClusterIPsRelatedFields: cluster IPs are legacy IP fields; the old ones pass as they are. */
export function validateClusterIPFields(svc: Service, old?: Service | null): ErrorList {
  const s = svc.spec ?? {};
  if (s.type === 'ExternalName') return [];
  const errs: ErrorList = [];
  const ipsPath = spec.child('clusterIPs');
  const ips = s.clusterIPs ?? [];
  if ((s.clusterIP ?? '') !== '') {
    if (ips.length === 0) errs.push(FieldError.required(ipsPath));
    else if (ips[0] !== s.clusterIP)
      errs.push(FieldError.invalid(ipsPath, ips, 'first value must match `clusterIP`'));
  } else if (ips.length > 0) {
    errs.push(FieldError.invalid(ipsPath, ips, 'must be empty when `clusterIP` is not specified'));
  }
  const seen = new Set<string>();
  (s.ipFamilies ?? []).forEach((f, i) => {
    const path = spec.child('ipFamilies').index(i);
    if (!families.includes(f)) errs.push(FieldError.notSupported(path, f, families));
    if (seen.has(f)) errs.push(FieldError.duplicate(path, f));
    seen.add(f);
  });
  const policy = s.ipFamilyPolicy;
  if (policy !== undefined && !familyPolicies.includes(policy)) {
    errs.push(FieldError.notSupported(spec.child('ipFamilyPolicy'), policy, familyPolicies));
  }
  let badIPs = false;
  for (const [i, ip] of ips.entries()) {
    if (i === 0 && ip === clusterIPNone) {
      if (ips.length > 1) {
        badIPs = true;
        errs.push(FieldError.invalid(ipsPath, ips, "'None' must be the first and only value"));
      }
      continue;
    }
    const ipErrs = isValidIPForLegacyField(ipsPath.index(i), ip, old?.spec?.clusterIPs);
    badIPs ||= ipErrs.length > 0;
    errs.push(...ipErrs);
  }
  if (ips.length > 2) errs.push(FieldError.invalid(ipsPath, ips, 'may only hold up to 2 values'));
  if (badIPs) return errs;
  if (ips.length > 1) errs.push(...dualStackErrors(ips, ipsPath));
  if (!isHeadless(svc)) {
    ips.forEach((ip, i) => {
      const want = s.ipFamilies?.[i];
      if (want === undefined) return;
      const got = sloppyIPFamily(ip);
      if (want === 'IPv4' && got === 'IPv6')
        errs.push(
          FieldError.invalid(
            ipsPath.index(i),
            ip,
            `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``,
          ),
        );
      if (want === 'IPv6' && got !== 'IPv6')
        errs.push(
          FieldError.invalid(
            ipsPath.index(i),
            ip,
            `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``,
          ),
        );
    });
  }
  return errs;
}

/** netutils.IsDualStackIPStrings over cluster IPs, which may be old values that do not parse. */
function dualStackErrors(ips: readonly string[], path: FieldPath): ErrorList {
  const families = ips.map(sloppyIPFamily);
  const unparsed = families.indexOf(undefined);
  const errs: ErrorList = [];
  if (unparsed >= 0)
    errs.push(
      FieldError.internal(
        path,
        `failed to check for dual stack with error:invalid IP[${String(unparsed)}]: ${ips[unparsed] ?? ''}`,
      ),
    );
  if (unparsed >= 0 || !(families.includes('IPv4') && families.includes('IPv6')))
    errs.push(FieldError.invalid(path, ips, 'may specify no more than one IP for each IP family'));
  return errs;
}

/** External IPs: new ones are legacy IP fields that are also usable endpoint IPs. */
function validateExternalIPs(svc: Service, old: Service | undefined): ErrorList {
  const existing = old?.spec?.externalIPs;
  return (svc.spec?.externalIPs ?? []).flatMap((ip, i) => {
    const path = spec.child('externalIPs').index(i);
    const errs = isValidIPForLegacyField(path, ip, existing);
    return errs.length > 0 ? errs : validateEndpointIP(ip, path);
  });
}

const sourceRangesAnnotation = 'service.beta.kubernetes.io/load-balancer-source-ranges';
const onlyForLoadBalancer = "may only be used when `type` is 'LoadBalancer'";

/**
 * The source ranges, from the field or else its annotation: only for load balancers, legacy CIDR
 * fields (space padding allowed); old values, or an annotation left as it was, pass as they are.
 */
function validateSourceRanges(svc: Service, old: Service | undefined): ErrorList {
  const errs: ErrorList = [];
  const isLB = svc.spec?.type === 'LoadBalancer';
  const ranges = svc.spec?.loadBalancerSourceRanges ?? [];
  if (ranges.length > 0) {
    const path = spec.child('loadBalancerSourceRanges');
    if (!isLB) errs.push(FieldError.forbidden(path, onlyForLoadBalancer));
    const existing = (old?.spec?.loadBalancerSourceRanges ?? []).map((r) => r.trim());
    ranges.forEach((r, i) => errs.push(...isValidCIDRForLegacyField(path.index(i), r.trim(), existing)));
    return errs;
  }
  const value = svc.metadata?.annotations?.[sourceRangesAnnotation];
  if (value === undefined) return errs;
  const path = FieldPath.of('metadata', 'annotations').key(sourceRangesAnnotation);
  if (!isLB) errs.push(FieldError.forbidden(path, onlyForLoadBalancer));
  if (old?.metadata?.annotations?.[sourceRangesAnnotation] === value || value.trim() === '') return errs;
  for (const r of value.trim().split(',')) errs.push(...isValidCIDRForLegacyField(path, r.trim()));
  return errs;
}

function validateTypeSpecific(svc: Service): ErrorList {
  const s = svc.spec ?? {};
  const errs: ErrorList = [];
  const first = s.clusterIPs?.[0] ?? '';
  switch (s.type ?? '') {
    case 'LoadBalancer':
      (s.ports ?? []).forEach((p, i) => {
        if (p.port === kubeletPort) {
          const detail = `may not expose port ${kubeletPort} externally since it is used by kubelet`;
          errs.push(FieldError.invalid(spec.child('ports').index(i), p.port, detail));
        }
      });
      if (isHeadless(svc))
        errs.push(
          FieldError.invalid(
            spec.child('clusterIPs').index(0),
            first,
            "may not be set to 'None' for LoadBalancer services",
          ),
        );
      break;
    case 'NodePort':
      if (isHeadless(svc))
        errs.push(
          FieldError.invalid(
            spec.child('clusterIPs').index(0),
            first,
            "may not be set to 'None' for NodePort services",
          ),
        );
      break;
    case 'ExternalName': {
      const forbidden = 'may not be set for ExternalName services';
      if ((s.clusterIPs ?? []).length > 0)
        errs.push(FieldError.forbidden(spec.child('clusterIPs'), forbidden));
      if ((s.ipFamilies ?? []).length > 0)
        errs.push(FieldError.forbidden(spec.child('ipFamilies'), forbidden));
      if (s.ipFamilyPolicy !== undefined)
        errs.push(FieldError.forbidden(spec.child('ipFamilyPolicy'), forbidden));
      const cname = (s.externalName ?? '').replace(/\.$/, '');
      if (cname === '') errs.push(FieldError.required(spec.child('externalName')));
      for (const m of isDNS1123Subdomain(cname))
        if (cname !== '') errs.push(FieldError.invalid(spec.child('externalName'), cname, m));
      break;
    }
    default:
      break;
  }
  return errs;
}

function validatePorts(svc: Service): ErrorList {
  const s = svc.spec ?? {};
  const ports = s.ports ?? [];
  const errs: ErrorList = [];
  const portsPath = spec.child('ports');
  if (ports.length === 0 && !isHeadless(svc) && s.type !== 'ExternalName')
    errs.push(FieldError.required(portsPath));
  const names = new Set<string>();
  ports.forEach((p, i) =>
    errs.push(...validateServicePort(p, { requireName: ports.length > 1, names, path: portsPath.index(i) })),
  );
  if (s.type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if ((p.nodePort ?? 0) !== 0)
        errs.push(
          FieldError.forbidden(
            portsPath.index(i).child('nodePort'),
            "may not be used when `type` is 'ClusterIP'",
          ),
        );
    });
  }
  const nodePorts = new Set<string>();
  const keys = new Set<string>();
  ports.forEach((p, i) => {
    const np = p.nodePort ?? 0;
    if (np !== 0) {
      const key = `${p.protocol ?? ''}/${np}`;
      if (nodePorts.has(key)) errs.push(FieldError.duplicate(portsPath.index(i).child('nodePort'), np));
      nodePorts.add(key);
    }
    const key = `${p.protocol ?? ''}/${p.port}`;
    if (keys.has(key)) {
      // kube prints its internal struct key with Go's %#v.
      errs.push(
        new FieldError({
          type: 'FieldValueDuplicate',
          field: portsPath.index(i).toString(),
          badValue: omitValue,
          detail: goServicePortKey(p),
        }),
      );
    }
    keys.add(key);
  });
  return errs;
}

function validateTrafficPolicies(svc: Service): ErrorList {
  const s = svc.spec ?? {};
  const errs: ErrorList = [];
  const ext = s.externalTrafficPolicy ?? '';
  const extPath = spec.child('externalTrafficPolicy');
  if (!externallyAccessible(svc)) {
    if (ext !== '')
      errs.push(FieldError.invalid(extPath, ext, 'may only be set for externally-accessible services'));
  } else if (ext === '') errs.push(FieldError.required(extPath));
  else if (!trafficPolicies.includes(ext)) errs.push(FieldError.notSupported(extPath, ext, trafficPolicies));
  const hc = s.healthCheckNodePort ?? 0;
  if (hc !== 0 && !needsHealthCheckNodePort(svc)) {
    const detail = "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'";
    errs.push(FieldError.invalid(spec.child('healthCheckNodePort'), hc, detail));
  }
  const internal = s.internalTrafficPolicy;
  const intPath = spec.child('internalTrafficPolicy');
  if (internal === undefined) {
    if (['ClusterIP', 'NodePort', 'LoadBalancer'].includes(s.type ?? ''))
      errs.push(FieldError.required(intPath));
  } else if (!trafficPolicies.includes(internal))
    errs.push(FieldError.notSupported(intPath, internal, trafficPolicies));
  return errs;
}

function validateSessionAffinity(svc: Service): ErrorList {
  const s = svc.spec ?? {};
  const affinity = s.sessionAffinity ?? '';
  const path = spec.child('sessionAffinity');
  if (affinity === '') return [FieldError.required(path)];
  if (!affinities.includes(affinity)) return [FieldError.notSupported(path, affinity, affinities)];
  if (affinity === 'None' && s.sessionAffinityConfig !== undefined) {
    return [
      FieldError.forbidden(
        spec.child('sessionAffinityConfig'),
        'must not be set when session affinity is None',
      ),
    ];
  }
  const timeout = s.sessionAffinityConfig?.clientIP?.timeoutSeconds;
  if (affinity === 'ClientIP' && (timeout === undefined || timeout <= 0 || timeout > 86400)) {
    const p = spec.child('sessionAffinityConfig', 'clientIP', 'timeoutSeconds');
    return [FieldError.invalid(p, timeout ?? 0, 'must be greater than 0 and less than 86400')];
  }
  return [];
}

/** ValidateService. */
/** The ObjectMeta part of ValidateService: a service's name is a DNS-1035 label. */
export function validateServiceMeta(svc: Service): ErrorList {
  return validateCoreObjectMeta(svc.metadata ?? {}, {
    requiresNamespace: true,
    validateName: nameIsDNS1035Label,
  });
}

/** ValidateService; `old` on an update, whose IPs and CIDRs pass as they are. */
export function validateService(svc: Service, old?: Service): ErrorList {
  const s = svc.spec ?? {};
  const errs = validateServiceMeta(svc);
  errs.push(...validateTypeSpecific(svc), ...validatePorts(svc));
  if (s.selector !== undefined) errs.push(...validateLabels(s.selector, spec.child('selector')));
  errs.push(...validateSessionAffinity(svc), ...validateClusterIPFields(svc, old));
  errs.push(...validateExternalIPs(svc, old));
  const type = s.type ?? '';
  if (type === '') errs.push(FieldError.required(spec.child('type')));
  else if (!serviceTypes.includes(type))
    errs.push(FieldError.notSupported(spec.child('type'), type, serviceTypes));
  errs.push(...validateSourceRanges(svc, old), ...validateTrafficPolicies(svc));
  return errs;
}

/** validateUpgradeDowngradeClusterIPs: the primary IP never changes; a second may come or go. */
function validateClusterIPsUpdate(svc: Service, old: Service): ErrorList {
  if (svc.spec?.type === 'ExternalName' || old.spec?.type === 'ExternalName') return [];
  if (isHeadless(svc) && isHeadless(old)) return [];
  const ips = svc.spec?.clusterIPs ?? [];
  const oldIPs = old.spec?.clusterIPs ?? [];
  const path = spec.child('clusterIPs');
  const errs: ErrorList = [];
  if (ips.length === oldIPs.length) {
    oldIPs.forEach((ip, i) => {
      if (ip !== ips[i]) errs.push(FieldError.invalid(path.index(i), ips, 'may not change once set'));
    });
    return errs;
  }
  if (oldIPs.length > ips.length && ips.length === 0) {
    errs.push(FieldError.invalid(path.index(0), ips, 'primary clusterIP can not be unset'));
  }
  if (oldIPs.length > 0 && ips.length > 0 && ips[0] !== oldIPs[0]) {
    errs.push(FieldError.invalid(path.index(0), ips, 'may not change once set'));
  }
  return errs;
}

/** ValidateServiceUpdate. */
export function validateServiceUpdate(svc: Service, old: Service): ErrorList {
  return [
    ...validateCoreObjectMetaUpdate(svc.metadata ?? {}, old.metadata ?? {}),
    ...validateClusterIPsUpdate(svc, old),
    ...validateService(svc, old),
  ];
}
