// Endpoints policy (pkg/registry/core/endpoint/strategy.go) and the main rules of ValidateEndpoints
// (validateEndpointSubsets in pkg/apis/core/validation/validation.go).
import { isIP } from 'node:net';
import type { EndpointAddress, EndpointPort, Endpoints } from '../../../api/core/v1/endpoints.js';
import {
  FieldError,
  FieldPath,
  inclusiveRangeError,
  isDNS1123Label,
  nameIsDNSSubdomain,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { validateCoreObjectMeta, validateCoreObjectMetaUpdate } from '../namespace/finalizer-names.js';

const protocols = ['TCP', 'UDP', 'SCTP'] as const;

function validateAddress(addr: EndpointAddress, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  if (isIP(addr.ip) === 0) {
    errs.push(
      FieldError.invalid(
        path.child('ip'),
        addr.ip,
        'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::cafe)',
      ),
    );
  }
  const hostname = addr.hostname ?? '';
  if (hostname !== '') {
    for (const msg of isDNS1123Label(hostname))
      errs.push(FieldError.invalid(path.child('hostname'), hostname, msg));
  }
  return errs;
}

function validatePort(port: EndpointPort, path: FieldPath, requireName: boolean): ErrorList {
  const errs: ErrorList = [];
  const name = port.name ?? '';
  if (requireName && name === '') errs.push(FieldError.required(path.child('name')));
  else if (name !== '') {
    for (const msg of isDNS1123Label(name)) errs.push(FieldError.invalid(path.child('name'), name, msg));
  }
  if (!Number.isInteger(port.port) || port.port < 1 || port.port > 65535) {
    errs.push(FieldError.invalid(path.child('port'), port.port, inclusiveRangeError(1, 65535)));
  }
  const protocol = port.protocol ?? '';
  if (protocol === '') errs.push(FieldError.required(path.child('protocol')));
  else if (!(protocols as readonly string[]).includes(protocol)) {
    errs.push(FieldError.notSupported(path.child('protocol'), protocol, protocols));
  }
  return errs;
}

/** validateEndpointSubsets. */
export function validateEndpointSubsets(ep: Endpoints): ErrorList {
  const errs: ErrorList = [];
  (ep.subsets ?? []).forEach((ss, i) => {
    const path = FieldPath.of('subsets').index(i);
    const addresses = ss.addresses ?? [];
    const notReady = ss.notReadyAddresses ?? [];
    if (addresses.length === 0 && notReady.length === 0) {
      errs.push(FieldError.required(path, 'must specify `addresses` or `notReadyAddresses`'));
    }
    addresses.forEach((a, j) => errs.push(...validateAddress(a, path.child('addresses').index(j))));
    notReady.forEach((a, j) => errs.push(...validateAddress(a, path.child('notReadyAddresses').index(j))));
    const ports = ss.ports ?? [];
    const seen = new Set<string>();
    ports.forEach((p, j) => {
      const portPath = path.child('ports').index(j);
      errs.push(...validatePort(p, portPath, ports.length > 1));
      const name = p.name ?? '';
      if (seen.has(name)) errs.push(FieldError.duplicate(portPath.child('name'), name));
      seen.add(name);
    });
  });
  return errs;
}

/** ValidateEndpointsCreate. */
export function validateEndpoints(ep: Endpoints): ErrorList {
  return [
    ...validateCoreObjectMeta(ep.metadata ?? {}, {
      requiresNamespace: true,
      validateName: nameIsDNSSubdomain,
    }),
    ...validateEndpointSubsets(ep),
  ];
}

/** ValidateEndpointsUpdate. */
export function validateEndpointsUpdate(ep: Endpoints, old: Endpoints): ErrorList {
  return [
    ...validateCoreObjectMetaUpdate(ep.metadata ?? {}, old.metadata ?? {}),
    ...validateEndpointSubsets(ep),
  ];
}

export const endpointsStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  prepareForCreate: () => undefined,
  validate: (_ctx, ep) => validateEndpoints(ep),
  warningsOnCreate: () => [],
  prepareForUpdate: () => undefined,
  validateUpdate: (_ctx, ep, old) => validateEndpointsUpdate(ep, old),
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<Endpoints> & UpdateStrategy<Endpoints>;

/** Endpoints are deleted at once. */
export const endpointsDeleteStrategy = {} satisfies DeleteStrategy<Endpoints>;
