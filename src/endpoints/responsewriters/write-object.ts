// kube's WriteObjectNegotiated and ErrorNegotiated (endpoints/handlers/responsewriters/writers.go):
// every response body of this layer is written here.
import type { Status } from '../../api/meta.js';
import { isStatusError, newInternalError, orderedStatus } from '../../machinery/errors/index.js';
import type { GroupVersionKind } from '../../machinery/schema/group-resource.js';
import { header } from '../http-types.js';
import { notAcceptableError } from '../negotiation/errors.js';
import { supportedMediaTypes } from '../negotiation/media-types.js';
import {
  defaultEndpointRestrictions,
  negotiateMediaTypeOptions,
  type EndpointRestrictions,
  type MediaTypeOptions,
} from '../negotiation/negotiate.js';
import type { Exchange } from './exchange.js';
import { servedJSONOf } from '../../storage/served-json.js';
import { encode, encodeJSON } from './serialize.js';
import { inGoOrder } from './go-order.js';
import { servesEncoded, writeEncodedObject } from './write-encoded.js';
import { isPrettyPrint, writeBody } from './write-response.js';

/** A Content-Type carrying the transformation, as discovery answers (`;g=…;v=…;as=…`). */
function contentTypeWithGVK(mediaType: string, gvk: GroupVersionKind | null): string {
  if (gvk === null) return mediaType;
  let out = mediaType;
  if (gvk.group !== '') out += `;g=${gvk.group}`;
  if (gvk.version !== '') out += `;v=${gvk.version}`;
  if (gvk.kind !== '') out += `;as=${gvk.kind}`;
  return out;
}

export interface WriteOptions {
  readonly restrictions?: EndpointRestrictions;
  /** Already negotiated by the handler; negotiated here from Accept otherwise. */
  readonly mediaType?: MediaTypeOptions;
  readonly gvkInContentType?: boolean;
}

/** Writes `object`; when Accept cannot be met, a success becomes 406 and an error goes out as JSON. */
export function writeObjectNegotiated(
  ex: Exchange,
  response: { readonly code: number; readonly object: unknown },
  opts: WriteOptions = {},
): void {
  const { code, object } = response;
  const media =
    opts.mediaType ??
    negotiateMediaTypeOptions(header(ex.req, 'accept'), opts.restrictions ?? defaultEndpointRestrictions);
  if (media === undefined) {
    if (code < 200 || code >= 400) {
      writeBody(ex, code, { contentType: 'application/json', body: encodeJSON(inGoOrder(object)) });
      return;
    }
    const status = errorToStatus(ex, notAcceptableError(supportedMediaTypes));
    writeBody(ex, status.code, { contentType: 'application/json', body: encodeJSON(status) });
    return;
  }
  // An object straight from a storage write or read carries the JSON it is stored as.
  const served = typeof object === 'object' && object !== null ? servedJSONOf(object) : undefined;
  if (served !== undefined && servesEncoded(ex, media)) {
    writeEncodedObject(ex, code, served);
    return;
  }
  const pretty = media.pretty || isPrettyPrint(ex);
  const mediaType = media.accepted.mediaType;
  const contentType =
    opts.gvkInContentType === true ? contentTypeWithGVK(mediaType, media.convert) : mediaType;
  // A Status (a delete's Success, an error), a list or a Table goes out in Go's member order.
  writeBody(ex, code, { contentType, body: encode(inGoOrder(object), mediaType, pretty) });
}

/** The Status an error is answered with; anything but a StatusError is logged and becomes a 500. */
export function errorToStatus(ex: Exchange, err: unknown): Status {
  if (isStatusError(err)) {
    const status: Status = { ...err.status, kind: 'Status', apiVersion: 'v1' };
    if (status.code === 0) status.code = status.status === 'Success' ? 200 : 500;
    return orderedStatus(status);
  }
  ex.logError('apiserver received an error that is not an metav1.Status', err);
  return newInternalError(err).status;
}

/** Answers an error as its Status, with Retry-After when the Status asks for a delay. */
export function writeError(ex: Exchange, err: unknown): void {
  const status = errorToStatus(ex, err);
  const retry = status.details?.retryAfterSeconds;
  if (retry !== undefined && retry > 0 && !ex.res.headersSent) ex.res.setHeader('Retry-After', String(retry));
  writeObjectNegotiated(ex, { code: status.code, object: status });
}
