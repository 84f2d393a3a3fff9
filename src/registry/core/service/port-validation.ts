// Service port checks of pkg/apis/core/validation (validateServicePort, ValidatePortNumOrName) and
// k8s.io/apimachinery/pkg/util/validation (IsValidPortNum, IsValidPortName).
import type { ServicePort } from '../../../api/core/v1/service.js';
import {
  FieldError,
  inclusiveRangeError,
  isDNS1123Label,
  maxLenError,
  type ErrorList,
  type FieldPath,
} from '../../../machinery/validation/index.js';

export const supportedPortProtocols = ['SCTP', 'TCP', 'UDP'];

/** IsValidPortNum. */
export function isValidPortNum(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

/** IsValidPortName: an IANA_SVC_NAME. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port))
    errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.startsWith('-') || port.endsWith('-')) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** ValidatePortNumOrName; a port missing from a decoded body is intstr's zero value, the number 0. */
export function validatePortNumOrName(given: number | string | undefined, path: FieldPath): ErrorList {
  const port = given ?? 0;
  if (typeof port === 'number') return isValidPortNum(port).map((m) => FieldError.invalid(path, port, m));
  return isValidPortName(port).map((m) => FieldError.invalid(path, port, m));
}

/** validateServicePort; `names` collects the names seen so far. */
export function validateServicePort(
  sp: ServicePort,
  at: { requireName: boolean; names: Set<string>; path: FieldPath },
): ErrorList {
  const errs: ErrorList = [];
  const name = sp.name ?? '';
  const namePath = at.path.child('name');
  if (at.requireName && name === '') errs.push(FieldError.required(namePath));
  else if (name !== '') {
    for (const m of isDNS1123Label(name)) errs.push(FieldError.invalid(namePath, name, m));
    if (at.names.has(name)) errs.push(FieldError.duplicate(namePath, name));
    at.names.add(name);
  }
  for (const m of isValidPortNum(sp.port)) errs.push(FieldError.invalid(at.path.child('port'), sp.port, m));
  const protocol = sp.protocol ?? '';
  if (protocol === '') errs.push(FieldError.required(at.path.child('protocol')));
  else if (!supportedPortProtocols.includes(protocol)) {
    errs.push(FieldError.notSupported(at.path.child('protocol'), protocol, supportedPortProtocols));
  }
  errs.push(...validatePortNumOrName(sp.targetPort ?? 0, at.path.child('targetPort')));
  return errs;
}

/** Go's %#v of the internal core.ServicePort{Protocol, Port} duplicate key kube reports. */
export function goServicePortKey(sp: ServicePort): string {
  const protocol = JSON.stringify(sp.protocol ?? '');
  return `core.ServicePort{Name:"", Protocol:${protocol}, AppProtocol:(*string)(nil), Port:${sp.port}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`;
}
