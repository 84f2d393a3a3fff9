// The negotiation failures of k8s.io/apiserver/pkg/endpoints/handlers/negotiation/errors.go and
// go-restful's route-level refusals as kube's serviceErrorHandler renders them.
import {
  newNotAcceptable,
  newUnsupportedMediaType,
  statusError,
  type StatusError,
} from '../../machinery/errors/index.js';

/** 406 when no Accept clause can be served. */
export function notAcceptableError(accepted: readonly string[]): StatusError {
  return newNotAcceptable(`only the following media types are accepted: ${accepted.join(', ')}`);
}

/** 415 when a body's Content-Type cannot be decoded. */
export function unsupportedMediaTypeError(accepted: readonly string[]): StatusError {
  return newUnsupportedMediaType(
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );
}

/** go-restful's 406 for an Accept header naming none of a route's media types. */
export function routeNotAcceptable(produces: readonly string[]): StatusError {
  return statusError({
    reason: 'NotAcceptable',
    message: `406: Not Acceptable\n\nAvailable representations: ${produces.join(', ')}`,
    details: {},
  });
}

/** go-restful's 415 for a Content-Type a route does not consume (kube's PATCH routes). */
export function routeUnsupportedMediaType(): StatusError {
  return statusError({ reason: 'UnsupportedMediaType', message: '415: Unsupported Media Type', details: {} });
}

/** A path no route serves (NewGenericServerResponse for 404). */
export function routeNotFound(): StatusError {
  return statusError({
    reason: 'NotFound',
    message: 'the server could not find the requested resource',
    details: {},
  });
}

/** A path some route serves, but not with this method. */
export function routeMethodNotAllowed(): StatusError {
  return statusError({
    reason: 'MethodNotAllowed',
    message: 'the server does not allow this method on the requested resource',
    details: {},
  });
}
