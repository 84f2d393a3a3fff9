// Endpoints policy (pkg/registry/core/endpoint/strategy.go) and the main rules of ValidateEndpoints
// (validateEndpointSubsets in pkg/apis/core/validation/validation.go).
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
import { jsonEqual } from '../../generic/object-meta.js';
import { isValidIPForLegacyField } from '../../networking/ip-validation.js';
import { warningsForIP } from '../../networking/ip-warnings.js';
import { validateCoreObjectMeta, validateCoreObjectMetaUpdate } from '../namespace/finalizer-names.js';

const protocols = ['TCP', 'UDP', 'SCTP'] as const;

/**
 * validateEndpointAddress: a legacy IP field, a DNS label hostname. Capstan leaves out kube's
 * ValidateEndpointIP here (no loopback, link-local or unspecified addresses): a server bound to
 * loopback names itself 127.0.0.1 in the `kubernetes` Endpoints, which it writes through this store.
 */
function validateAddress(addr: EndpointAddress, path: FieldPath): ErrorList {
  const errs = isValidIPForLegacyField(path.child('ip'), addr.ip);
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

/** ValidateEndpointsUpdate: subsets an update leaves as they were pass, as older releases took them. */
export function validateEndpointsUpdate(ep: Endpoints, old: Endpoints): ErrorList {
  const subsetErrs = validateEndpointSubsets(ep);
  const unchanged = subsetErrs.length > 0 && jsonEqual(ep.subsets ?? [], old.subsets ?? []);
  return [
    ...validateCoreObjectMetaUpdate(ep.metadata ?? {}, old.metadata ?? {}),
    ...(unchanged ? [] : subsetErrs),
  ];
}

/** endpointsWarnings: the legacy IP warnings, skipped for what the endpoints controller wrote. */
function endpointsWarnings(ep: Endpoints): string[] {
  if (ep.metadata?.labels?.['endpoints.kubernetes.io/managed-by'] === 'endpoint-controller') return [];
  const warnings: string[] = [];
  (ep.subsets ?? []).forEach((ss, i) => {
    for (const list of ['addresses', 'notReadyAddresses'] as const)
      (ss[list] ?? []).forEach((a, j) =>
        warnings.push(
          ...warningsForIP(() => FieldPath.of('subsets').index(i).child(list).index(j).child('ip'), a.ip),
        ),
      );
  });
  return warnings;
}

export const endpointsStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  prepareForCreate: () => undefined,
  validate: (_ctx, ep) => validateEndpoints(ep),
  warningsOnCreate: (_ctx, ep) => endpointsWarnings(ep),
  prepareForUpdate: () => undefined,
  validateUpdate: (_ctx, ep, old) => validateEndpointsUpdate(ep, old),
  warningsOnUpdate: (_ctx, ep) => endpointsWarnings(ep),
} satisfies CreateStrategy<Endpoints> & UpdateStrategy<Endpoints>;

/** Endpoints are deleted at once. */
export const endpointsDeleteStrategy = {} satisfies DeleteStrategy<Endpoints>;
