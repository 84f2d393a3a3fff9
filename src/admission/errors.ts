// Admission's error helpers (k8s.io/apiserver/pkg/admission/errors.go): the name in the message is
// the request's, else the object's name, else its generateName, else "Unknown".
import { isStatusError, newForbidden, type StatusError } from '../machinery/errors/index.js';
import type { Attributes } from './attributes.js';

function resourceName(a: Attributes): string {
  if (a.name !== '') return a.name;
  const meta = a.object?.metadata;
  if (meta === undefined) return 'Unknown';
  if ((meta.name ?? '') !== '') return meta.name ?? '';
  if ((meta.generateName ?? '') !== '') return meta.generateName ?? '';
  return 'Unknown';
}

/** admission.NewForbidden: `<resource> "<name>" is forbidden: <cause>`; a Forbidden error passes as is. */
export function newAdmissionForbidden(a: Attributes, cause: unknown): StatusError {
  if (isStatusError(cause) && cause.reason === 'Forbidden') return cause;
  const text = cause instanceof Error ? cause.message : String(cause);
  return newForbidden({ group: a.resource.group, resource: a.resource.resource }, resourceName(a), text);
}
