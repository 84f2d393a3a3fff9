// EndpointSlice validation (ValidateEndpointSlice, ValidateEndpointSliceUpdate in
// pkg/apis/discovery/validation/validation.go).
import { isIPv4, isIPv6 } from 'node:net';
import {
  addressTypes,
  type Endpoint,
  type EndpointSlice,
  type EndpointSlicePort,
} from '../../../api/discovery/v1/endpoint-slice.js';
import {
  FieldError,
  FieldPath,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  validateLabels,
  type ErrorList,
  validateObjectMeta,
  nameIsDNSSubdomain,
} from '../../../machinery/validation/index.js';
import { validateImmutableField } from '../../generic/validate-meta-update.js';

const maxEndpoints = 1000;
const maxAddresses = 100;
const maxPorts = 20000;
const protocols = ['SCTP', 'TCP', 'UDP'] as const;

/** ValidateEndpointIP: no unspecified, loopback or link-local addresses. */
function validateEndpointIP(ip: string, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const v4 = isIPv4(ip) ? ip.split('.').map(Number) : undefined;
  const lower = ip.toLowerCase();
  const unspecified = v4 ? v4.every((o) => o === 0) : /^[0:]+$/.test(lower);
  const loopback = v4 ? v4[0] === 127 : lower === '::1';
  const linkLocal = v4 ? v4[0] === 169 && v4[1] === 254 : /^fe[89ab]/.test(lower);
  const linkLocalMulticast = v4 ? v4[0] === 224 && v4[1] === 0 && v4[2] === 0 : lower.startsWith('ff02:');
  if (unspecified) errs.push(FieldError.invalid(path, ip, `may not be unspecified (${ip})`));
  if (loopback)
    errs.push(FieldError.invalid(path, ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (linkLocal)
    errs.push(FieldError.invalid(path, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (linkLocalMulticast) {
    errs.push(
      FieldError.invalid(path, ip, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'),
    );
  }
  return errs;
}

/** IsFullyQualifiedDomainName. */
function isFullyQualifiedDomainName(path: FieldPath, value: string): ErrorList {
  if (value === '') return [FieldError.required(path, '')];
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  const subdomain = isDNS1123Subdomain(name);
  if (subdomain.length > 0) return [FieldError.invalid(path, name, subdomain.join(','))];
  const labels = name.split('.');
  if (labels.length < 2) {
    return [
      FieldError.invalid(path, name, 'should be a domain with at least two segments separated by dots'),
    ];
  }
  for (const label of labels) {
    const errs = isDNS1123Label(label);
    if (errs.length > 0) return [FieldError.invalid(path, label, errs.join(','))];
  }
  return [];
}

function validateAddress(address: string, at: { type: string; path: FieldPath }): ErrorList {
  switch (at.type) {
    case 'IPv4':
      return isIPv4(address)
        ? validateEndpointIP(address, at.path)
        : [FieldError.invalid(at.path, address, 'must be a valid IPv4 address')];
    case 'IPv6':
      return isIPv6(address)
        ? validateEndpointIP(address, at.path)
        : [FieldError.invalid(at.path, address, 'must be a valid IPv6 address')];
    case 'FQDN':
      return isFullyQualifiedDomainName(at.path, address);
    default:
      return [];
  }
}

function validateEndpoint(ep: Endpoint, at: { type: string; path: FieldPath }): ErrorList {
  const errs: ErrorList = [];
  const addressPath = at.path.child('addresses');
  // Required, but a body may leave it out: Go's nil slice has length 0.
  const addresses = (ep.addresses as string[] | undefined) ?? [];
  if (addresses.length === 0) errs.push(FieldError.required(addressPath, 'must contain at least 1 address'));
  else if (addresses.length > maxAddresses)
    errs.push(FieldError.tooMany(addressPath, addresses.length, maxAddresses));
  addresses.forEach((a, i) =>
    errs.push(...validateAddress(a, { type: at.type, path: addressPath.index(i) })),
  );
  if (ep.nodeName !== undefined) {
    const node = ep.nodeName;
    errs.push(...isDNS1123Subdomain(node).map((m) => FieldError.invalid(at.path.child('nodeName'), node, m)));
  }
  errs.push(...validateLabels(ep.deprecatedTopology, at.path.child('deprecatedTopology')));
  if (ep.hostname !== undefined) {
    const host = ep.hostname;
    errs.push(...isDNS1123Label(host).map((m) => FieldError.invalid(at.path.child('hostname'), host, m)));
  }
  return errs;
}

function validatePorts(ports: readonly EndpointSlicePort[], path: FieldPath): ErrorList {
  if (ports.length > maxPorts) return [FieldError.tooMany(path, ports.length, maxPorts)];
  const errs: ErrorList = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const p = path.index(i);
    const name = port.name ?? '';
    if (name !== '')
      errs.push(...isDNS1123Label(name).map((m) => FieldError.invalid(p.child('name'), name, m)));
    if (names.has(name)) errs.push(FieldError.duplicate(p.child('name'), name));
    names.add(name);
    if (port.protocol === undefined) errs.push(FieldError.required(p.child('protocol'), ''));
    else if (!(protocols as readonly string[]).includes(port.protocol)) {
      errs.push(FieldError.notSupported(p.child('protocol'), port.protocol, protocols));
    }
    if (port.appProtocol !== undefined) {
      const app = port.appProtocol;
      errs.push(...isQualifiedName(app).map((m) => FieldError.invalid(p.child('appProtocol'), app, m)));
    }
  });
  return errs;
}

/** ValidateEndpointSlice (metadata with DNS-subdomain names, then the fields). */
export function validateEndpointSlice(slice: EndpointSlice): ErrorList {
  return [
    ...validateObjectMeta(slice.metadata ?? {}, {
      requiresNamespace: true,
      validateName: nameIsDNSSubdomain,
    }),
    ...validateEndpointSliceFields(slice),
  ];
}

function validateEndpointSliceFields(slice: EndpointSlice): ErrorList {
  const errs: ErrorList = [];
  const type = slice.addressType;
  if (type === '') errs.push(FieldError.required(FieldPath.of('addressType'), ''));
  else if (!(addressTypes as readonly string[]).includes(type)) {
    errs.push(FieldError.notSupported(FieldPath.of('addressType'), type, addressTypes));
  }
  const path = FieldPath.of('endpoints');
  const endpoints = slice.endpoints ?? [];
  if (endpoints.length > maxEndpoints) errs.push(FieldError.tooMany(path, endpoints.length, maxEndpoints));
  endpoints.forEach((ep, i) => errs.push(...validateEndpoint(ep, { type, path: path.index(i) })));
  errs.push(...validatePorts(slice.ports ?? [], FieldPath.of('ports')));
  return errs;
}

/** ValidateEndpointSliceUpdate: the address type is immutable. */
export function validateEndpointSliceUpdate(slice: EndpointSlice, old: EndpointSlice): ErrorList {
  return [
    ...validateEndpointSlice(slice),
    ...validateImmutableField(slice.addressType, old.addressType, FieldPath.of('addressType')),
  ];
}
