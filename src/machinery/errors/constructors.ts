// Constructors with the messages of k8s.io/apimachinery/pkg/api/errors/errors.go.
import type { StatusCause } from '../../api/meta.js';
import { groupResourceString, type GroupKind, type GroupResource } from '../schema/group-resource.js';
import { statusError, type StatusError } from './status-error.js';
import type { CauseType } from './status-reasons.js';

const quote = (s: string): string => JSON.stringify(s);

export function newNotFound(qr: GroupResource, name: string): StatusError {
  return statusError({
    reason: 'NotFound',
    message: `${groupResourceString(qr)} ${quote(name)} not found`,
    details: { name, group: qr.group, kind: qr.resource },
  });
}

export function newAlreadyExists(qr: GroupResource, name: string): StatusError {
  return statusError({
    reason: 'AlreadyExists',
    message: `${groupResourceString(qr)} ${quote(name)} already exists`,
    details: { name, group: qr.group, kind: qr.resource },
  });
}

export function newConflict(qr: GroupResource, name: string, cause: string): StatusError {
  return statusError({
    reason: 'Conflict',
    message: `Operation cannot be fulfilled on ${groupResourceString(qr)} ${quote(name)}: ${cause}`,
    details: { name, group: qr.group, kind: qr.resource },
  });
}

export function newGone(message: string): StatusError {
  return statusError({ reason: 'Gone', message });
}

/** 410 with reason Expired: a resourceVersion or continue token older than the store keeps. */
export function newResourceExpired(message: string): StatusError {
  return statusError({ reason: 'Expired', message });
}

export function newBadRequest(message: string): StatusError {
  return statusError({ reason: 'BadRequest', message });
}

export function newMethodNotSupported(qr: GroupResource, action: string): StatusError {
  return statusError({
    reason: 'MethodNotAllowed',
    message: `${action} is not supported on resources of kind ${quote(groupResourceString(qr))}`,
    details: { group: qr.group, kind: qr.resource },
  });
}

export function newServerTimeout(
  qr: GroupResource,
  operation: string,
  retryAfterSeconds: number,
): StatusError {
  return statusError({
    reason: 'ServerTimeout',
    message: `The ${operation} operation against ${groupResourceString(qr)} could not be completed at this time, please try again.`,
    details: { group: qr.group, kind: qr.resource, name: operation, retryAfterSeconds },
  });
}

export function newTimeoutError(message: string, retryAfterSeconds: number): StatusError {
  return statusError({
    reason: 'Timeout',
    message: `Timeout: ${message}`,
    details: { retryAfterSeconds },
  });
}

/** apierrors.NewTooManyRequests: the message as given, with Retry-After in the details. */
export function newTooManyRequests(message: string, retryAfterSeconds: number): StatusError {
  return statusError({ reason: 'TooManyRequests', message, details: { retryAfterSeconds } });
}

/** apierrors.NewTooManyRequestsError: a rejected request the client may retry later. */
export function newTooManyRequestsError(message: string): StatusError {
  return statusError({ reason: 'TooManyRequests', message: `Too many requests: ${message}` });
}

export function newInternalError(err: unknown): StatusError {
  const text = err instanceof Error ? err.message : String(err);
  return statusError({
    reason: 'InternalError',
    message: `Internal error occurred: ${text}`,
    details: { causes: [{ message: text }] },
  });
}

export function newServiceUnavailable(message: string): StatusError {
  return statusError({ reason: 'ServiceUnavailable', message });
}

export function newNotAcceptable(message: string): StatusError {
  return statusError({ reason: 'NotAcceptable', message });
}

export function newUnsupportedMediaType(message: string): StatusError {
  return statusError({ reason: 'UnsupportedMediaType', message });
}

export function newRequestEntityTooLarge(message: string): StatusError {
  return statusError({ reason: 'RequestEntityTooLarge', message: `Request entity too large: ${message}` });
}

export function newForbidden(qr: GroupResource, name: string, cause: string): StatusError {
  const what = name === '' ? groupResourceString(qr) : `${groupResourceString(qr)} ${quote(name)}`;
  return statusError({
    reason: 'Forbidden',
    message: `${what} is forbidden: ${cause}`,
    details: { name, group: qr.group, kind: qr.resource },
  });
}

export function newUnauthorized(reason: string): StatusError {
  return statusError({ reason: 'Unauthorized', message: reason === '' ? 'Unauthorized' : reason });
}

/** One field error as the Invalid status needs it: its cause type, path, body and full text. */
export interface InvalidFieldError {
  readonly causeType: CauseType;
  readonly field: string;
  /** The error without its field path (kube's ErrorBody). */
  readonly body: string;
  /** The whole error text (kube's Error()). */
  readonly text: string;
}

/** `<kind> "<name>" is invalid: <aggregate>` with one cause per field error, 422. */
export function newInvalid(qk: GroupKind, name: string, errs: readonly InvalidFieldError[]): StatusError {
  const causes: StatusCause[] = errs.map((e) => ({ reason: e.causeType, message: e.body, field: e.field }));
  const kind = qk.group === '' ? qk.kind : `${qk.kind}.${qk.group}`;
  const texts = [...new Set(errs.map((e) => e.text))];
  const message =
    texts.length === 0
      ? `${kind} ${quote(name)} is invalid`
      : `${kind} ${quote(name)} is invalid: ${texts.length === 1 ? (texts[0] ?? '') : `[${texts.join(', ')}]`}`;
  return statusError({
    reason: 'Invalid',
    message,
    details: { name, group: qk.group, kind: qk.kind, causes },
  });
}
