// Ingress validation (ValidateIngressCreate, ValidateIngressUpdate and ValidateIngressStatusUpdate in
// pkg/apis/networking/validation/validation.go).
import {
  pathTypes,
  type HTTPIngressPath,
  type Ingress,
  type IngressBackend,
  type IngressRule,
  type IngressSpec,
} from '../../../api/networking/v1/ingress.js';
import {
  FieldError,
  FieldPath,
  isDNS1035Label,
  isDNS1123Subdomain,
  regexError,
  type ErrorList,
  validateObjectMeta,
  nameIsDNSSubdomain,
} from '../../../machinery/validation/index.js';
import { isIPSloppy } from '../../../machinery/netip/sloppy.js';
import { isValidPortName, isValidPortNum } from '../../core/service/port-validation.js';
import { isValidIPForLegacyField } from '../ip-validation.js';

const annotationIngressClass = 'kubernetes.io/ingress.class';
const invalidPathSequences = ['//', '/./', '/../', '%2f', '%2F'];
const invalidPathSuffixes = ['/..', '/.'];

const wildcardFmt = '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
const wildcardRe = new RegExp(`^${wildcardFmt}$`);

/** IsWildcardDNS1123Subdomain. */
export function isWildcardDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!wildcardRe.test(value)) {
    errs.push(
      regexError(
        "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character",
        wildcardFmt,
        '*.example.com',
      ),
    );
  }
  return errs;
}

/** Host names of rules and TLS entries: a DNS subdomain, or a wildcard one. */
function validateHost(host: string, path: FieldPath): ErrorList {
  const msgs = host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
  return msgs.map((m) => FieldError.invalid(path, host, m));
}

/** validateIngressBackend. */
export function validateIngressBackend(backend: IngressBackend, path: FieldPath): ErrorList {
  const { service, resource } = backend;
  if (service !== undefined && resource !== undefined) {
    return [FieldError.invalid(path, '', 'cannot set both resource and service backends')];
  }
  if (resource !== undefined) {
    const errs: ErrorList = [];
    if (((resource.kind as string | undefined) ?? '') === '')
      errs.push(FieldError.required(path.child('resource', 'kind'), ''));
    if (((resource.name as string | undefined) ?? '') === '')
      errs.push(FieldError.required(path.child('resource', 'name'), ''));
    return errs;
  }
  if (service === undefined) return [FieldError.invalid(path, '', 'resource or service backend is required')];
  const errs: ErrorList = [];
  const namePath = path.child('service', 'name');
  if (service.name === '') errs.push(FieldError.required(namePath, ''));
  else errs.push(...isDNS1035Label(service.name).map((m) => FieldError.invalid(namePath, service.name, m)));
  const portName = service.port?.name ?? '';
  const portNumber = service.port?.number ?? 0;
  if (portName !== '' && portNumber !== 0) {
    errs.push(FieldError.invalid(path, '', 'cannot set both port name & port number'));
  } else if (portName !== '') {
    const p = path.child('service', 'port', 'name');
    errs.push(...isValidPortName(portName).map((m) => FieldError.invalid(p, portName, m)));
  } else if (portNumber !== 0) {
    const p = path.child('service', 'port', 'number');
    errs.push(...isValidPortNum(portNumber).map((m) => FieldError.invalid(p, portNumber, m)));
  } else {
    errs.push(FieldError.required(path, 'port name or number is required'));
  }
  return errs;
}

/** validateHTTPIngressPath. */
function validateHTTPIngressPath(p: HTTPIngressPath, path: FieldPath): ErrorList {
  if (p.pathType === undefined)
    return [FieldError.required(path.child('pathType'), 'pathType must be specified')];
  const errs: ErrorList = [];
  const value = p.path ?? '';
  const pathPath = path.child('path');
  switch (p.pathType) {
    case 'Exact':
    case 'Prefix':
      if (!value.startsWith('/')) errs.push(FieldError.invalid(pathPath, value, 'must be an absolute path'));
      for (const seq of invalidPathSequences) {
        if (value.includes(seq)) errs.push(FieldError.invalid(pathPath, value, `must not contain '${seq}'`));
      }
      for (const suffix of invalidPathSuffixes) {
        if (value.endsWith(suffix))
          errs.push(FieldError.invalid(pathPath, value, `cannot end with '${suffix}'`));
      }
      break;
    case 'ImplementationSpecific':
      if (value !== '' && !value.startsWith('/')) {
        errs.push(FieldError.invalid(pathPath, value, 'must be an absolute path'));
      }
      break;
    default:
      errs.push(FieldError.notSupported(path.child('pathType'), p.pathType, pathTypes));
  }
  errs.push(...validateIngressBackend(p.backend, path.child('backend')));
  return errs;
}

function validateIngressRule(rule: IngressRule, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const host = rule.host ?? '';
  if (host !== '') {
    if (isIPSloppy(host))
      errs.push(FieldError.invalid(path.child('host'), host, 'must be a DNS name, not an IP address'));
    errs.push(...validateHost(host, path.child('host')));
  }
  if (rule.http !== undefined) {
    const httpPath = path.child('http');
    if (rule.http.paths.length === 0) errs.push(FieldError.required(httpPath.child('paths'), ''));
    rule.http.paths.forEach((p, i) =>
      errs.push(...validateHTTPIngressPath(p, httpPath.child('paths').index(i))),
    );
  }
  return errs;
}

/** ValidateIngressSpec. */
export function validateIngressSpec(spec: IngressSpec, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const rules = spec.rules ?? [];
  if (rules.length === 0 && spec.defaultBackend === undefined) {
    errs.push(
      FieldError.invalid(path, spec.rules ?? null, 'either `defaultBackend` or `rules` must be specified'),
    );
  }
  if (spec.defaultBackend !== undefined) {
    errs.push(...validateIngressBackend(spec.defaultBackend, path.child('defaultBackend')));
  }
  rules.forEach((r, i) => errs.push(...validateIngressRule(r, path.child('rules').index(i))));
  (spec.tls ?? []).forEach((t, i) => {
    (t.hosts ?? []).forEach((h, j) =>
      errs.push(...validateHost(h, path.child('tls').index(i).child('hosts').index(j))),
    );
  });
  if (spec.ingressClassName !== undefined) {
    const name = spec.ingressClassName;
    errs.push(
      ...isDNS1123Subdomain(name).map((m) => FieldError.invalid(path.child('ingressClassName'), name, m)),
    );
  }
  return errs;
}

/** ValidateIngressCreate: the spec, and not both the class annotation and the class field. */
export function validateIngressCreate(ingress: Ingress): ErrorList {
  return [
    ...validateObjectMeta(ingress.metadata ?? {}, {
      requiresNamespace: true,
      validateName: nameIsDNSSubdomain,
    }),
    ...validateIngressCreateFields(ingress),
  ];
}

function validateIngressCreateFields(ingress: Ingress): ErrorList {
  const errs = validateIngressSpec(ingress.spec ?? {}, FieldPath.of('spec'));
  const annotation = ingress.metadata?.annotations?.[annotationIngressClass];
  if (
    annotation !== undefined &&
    ingress.spec?.ingressClassName !== undefined &&
    annotation !== ingress.spec.ingressClassName
  ) {
    errs.push(
      FieldError.invalid(
        FieldPath.of('annotations').child(annotationIngressClass),
        annotation,
        'must match `ingressClassName` when both are specified',
      ),
    );
  }
  return errs;
}

/** ValidateIngressUpdate. */
export function validateIngressUpdate(ingress: Ingress): ErrorList {
  return validateIngressSpec(ingress.spec ?? {}, FieldPath.of('spec'));
}

/**
 * ValidateIngressLoadBalancerStatus: load balancer IPs are legacy IP fields (those the old status held
 * pass as they are), hostnames are DNS names that netutils.ParseIPSloppy does not read as an IP.
 */
export function validateIngressStatus(ingress: Ingress, old: Ingress): ErrorList {
  const path = FieldPath.of('status', 'loadBalancer', 'ingress');
  const existing = (old.status?.loadBalancer?.ingress ?? [])
    .map((lb) => lb.ip ?? '')
    .filter((ip) => ip !== '');
  return (ingress.status?.loadBalancer?.ingress ?? []).flatMap((lb, i) => {
    const errs: ErrorList = [];
    if (lb.ip !== undefined && lb.ip !== '')
      errs.push(...isValidIPForLegacyField(path.index(i).child('ip'), lb.ip, existing));
    if (lb.hostname !== undefined && lb.hostname !== '') {
      const h = lb.hostname;
      errs.push(
        ...isDNS1123Subdomain(h).map((m) => FieldError.invalid(path.index(i).child('hostname'), h, m)),
      );
      if (isIPSloppy(h))
        errs.push(
          FieldError.invalid(path.index(i).child('hostname'), h, 'must be a DNS name, not an IP address'),
        );
    }
    return errs;
  });
}
