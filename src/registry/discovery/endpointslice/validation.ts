// EndpointSlice validation (ValidateEndpointSlice, ValidateEndpointSliceUpdate in
// pkg/apis/discovery/validation/validation.go, 1.33).
import { sloppyIPFamily } from '../../../machinery/netip/sloppy.js';
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
import { jsonEqual } from '../../generic/object-meta.js';
import { validateImmutableField } from '../../generic/validate-meta-update.js';
import { validateEndpointIP } from '../../core/endpoint/endpoint-ip.js';
import { isValidIP, isValidIPForLegacyField } from '../../networking/ip-validation.js';

const maxEndpoints = 1000;
const maxAddresses = 100;
const maxPorts = 20000;
const protocols = ['SCTP', 'TCP', 'UDP'] as const;

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

/**
 * An address of the slice's type: IPv4 as a legacy IP field, IPv6 as a strict one (IsValidIP), each
 * then of its family (refused at the list's path, as kube does) and usable as an endpoint.
 */
function validateAddress(address: string, at: { type: string; path: FieldPath; list: FieldPath }): ErrorList {
  if (at.type === 'FQDN') return isFullyQualifiedDomainName(at.path, address);
  if (at.type !== 'IPv4' && at.type !== 'IPv6') return [];
  const ipErrs = at.type === 'IPv4' ? isValidIPForLegacyField(at.path, address) : isValidIP(at.path, address);
  if (ipErrs.length > 0) return ipErrs;
  const errs: ErrorList = [];
  if (sloppyIPFamily(address) !== at.type)
    errs.push(FieldError.invalid(at.list, address, `must be an ${at.type} address`));
  errs.push(...validateEndpointIP(address, at.path));
  return errs;
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
    errs.push(...validateAddress(a, { type: at.type, path: addressPath.index(i), list: addressPath })),
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

/** validateEndpoints: at most 1000, else each endpoint. */
function validateEndpoints(slice: EndpointSlice): ErrorList {
  const path = FieldPath.of('endpoints');
  const endpoints = slice.endpoints ?? [];
  if (endpoints.length > maxEndpoints) return [FieldError.tooMany(path, endpoints.length, maxEndpoints)];
  return endpoints.flatMap((ep, i) => validateEndpoint(ep, { type: slice.addressType, path: path.index(i) }));
}

/**
 * ValidateEndpointSlice: metadata with DNS-subdomain names, the address type, the ports, then the
 * endpoints, whose errors an update that leaves them as they were does not report.
 */
export function validateEndpointSlice(slice: EndpointSlice, old?: EndpointSlice): ErrorList {
  const errs = validateObjectMeta(slice.metadata ?? {}, {
    requiresNamespace: true,
    validateName: nameIsDNSSubdomain,
  });
  const type = slice.addressType;
  if (type === '') errs.push(FieldError.required(FieldPath.of('addressType'), ''));
  else if (!(addressTypes as readonly string[]).includes(type)) {
    errs.push(FieldError.notSupported(FieldPath.of('addressType'), type, addressTypes));
  }
  errs.push(...validatePorts(slice.ports ?? [], FieldPath.of('ports')));
  const endpointErrs = validateEndpoints(slice);
  if (
    endpointErrs.length > 0 &&
    !(old !== undefined && jsonEqual(slice.endpoints ?? [], old.endpoints ?? []))
  )
    errs.push(...endpointErrs);
  return errs;
}

/** ValidateEndpointSliceUpdate: the address type is immutable. */
export function validateEndpointSliceUpdate(slice: EndpointSlice, old: EndpointSlice): ErrorList {
  return [
    ...validateEndpointSlice(slice, old),
    ...validateImmutableField(slice.addressType, old.addressType, FieldPath.of('addressType')),
  ];
}
