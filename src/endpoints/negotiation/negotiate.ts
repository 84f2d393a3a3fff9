// Content negotiation after k8s.io/apiserver/pkg/endpoints/handlers/negotiation/negotiate.go.
import type { GroupVersionKind } from '../../machinery/schema/group-resource.js';
import { parseAccept } from './accept.js';
import { notAcceptableError, unsupportedMediaTypeError } from './errors.js';
import {
  builtinBodySerializers,
  supportedMediaTypes,
  supportedSerializers,
  supportedStreamingMediaTypes,
  type BodyMediaTypeName,
  type SerializerInfo,
} from './media-types.js';

/** What an endpoint can do with the `as`/`g`/`v`, `stream` and `sv` Accept parameters. */
export interface EndpointRestrictions {
  allowsMediaTypeTransform(type: string, subType: string, target: GroupVersionKind | null): boolean;
  allowsServerVersion(version: string): boolean;
  allowsStreamSchema(schema: string): boolean;
}

/** Plain objects only (kube's DefaultEndpointRestrictions), as errors and most non-resource endpoints use. */
export const defaultEndpointRestrictions: EndpointRestrictions = {
  allowsMediaTypeTransform: (_t, _s, target) => target === null,
  allowsServerVersion: () => false,
  allowsStreamSchema: (s) => s === 'watch',
};

export interface MediaTypeOptions {
  readonly accepted: SerializerInfo;
  /** The requested transformation (`as=Table;g=meta.k8s.io;v=v1`), null for the object itself. */
  readonly convert: GroupVersionKind | null;
  readonly pretty: boolean;
  readonly stream: string;
}

function acceptMediaTypeOptions(
  params: Readonly<Record<string, string>>,
  accepts: SerializerInfo,
  endpoint: EndpointRestrictions,
): MediaTypeOptions | undefined {
  let convert: { group: string; version: string; kind: string } | null = null;
  let pretty = false;
  let stream = '';
  for (const [key, value] of Object.entries(params)) {
    if (key === 'as' || key === 'g' || key === 'v') {
      convert ??= { group: '', version: '', kind: '' };
      if (key === 'as') convert.kind = value;
      else if (key === 'g') convert.group = value;
      else convert.version = value;
    } else if (key === 'stream') {
      if (value !== '' && (!accepts.streaming || !endpoint.allowsStreamSchema(value))) return undefined;
      stream = value;
    } else if (key === 'sv') {
      if (value !== '' && !endpoint.allowsServerVersion(value)) return undefined;
    } else if (key === 'pretty') {
      pretty = value === '1';
    }
  }
  if (!endpoint.allowsMediaTypeTransform(accepts.type, accepts.subType, convert)) return undefined;
  return { accepted: accepts, convert, pretty, stream };
}

function clauseMatches(clause: { type: string; subType: string }, s: SerializerInfo): boolean {
  if (clause.type === '*' && clause.subType === '*') return true;
  return clause.type === s.type && (clause.subType === s.subType || clause.subType === '*');
}

/** The first Accept clause this endpoint can serve, or undefined. */
export function negotiateMediaTypeOptions(
  header: string | undefined,
  endpoint: EndpointRestrictions,
): MediaTypeOptions | undefined {
  const first = supportedSerializers[0];
  if ((header === undefined || header === '') && first !== undefined) {
    return { accepted: first, convert: null, pretty: false, stream: '' };
  }
  for (const clause of parseAccept(header ?? '')) {
    for (const s of supportedSerializers) {
      if (!clauseMatches(clause, s)) continue;
      const options = acceptMediaTypeOptions(clause.params, s, endpoint);
      if (options !== undefined) return options;
    }
  }
  return undefined;
}

/** The response media type, or 406 listing what this server can write. */
export function negotiateOutputMediaType(
  header: string | undefined,
  endpoint: EndpointRestrictions,
): MediaTypeOptions {
  const options = negotiateMediaTypeOptions(header, endpoint);
  if (options === undefined) throw notAcceptableError(supportedMediaTypes);
  return options;
}

/** The media type of a watch stream, or 406 listing the streaming types. */
export function negotiateOutputMediaTypeStream(
  header: string | undefined,
  endpoint: EndpointRestrictions,
): MediaTypeOptions {
  const options = negotiateMediaTypeOptions(header, endpoint);
  if (options === undefined || !options.accepted.streaming)
    throw notAcceptableError(supportedStreamingMediaTypes);
  return options;
}

/** The bare media type of a Content-Type header (parameters and case dropped), or undefined if malformed. */
export function parseContentType(header: string): string | undefined {
  const base = (header.split(';')[0] ?? '').trim().toLowerCase();
  return /^[a-z0-9!#$%&'*+.^_`|~-]+\/[a-z0-9!#$%&'*+.^_`|~-]+$/.test(base) ? base : undefined;
}

/**
 * The serializer for a request body among `accepted` (by default those of built-in kinds: JSON,
 * YAML and protobuf); an absent Content-Type means JSON, anything else unlisted is 415.
 */
export function negotiateInputSerializer(
  contentType: string | undefined,
  accepted: readonly SerializerInfo<BodyMediaTypeName>[] = builtinBodySerializers,
): SerializerInfo<BodyMediaTypeName> {
  if (contentType === undefined || contentType === '') return supportedSerializers[0] as SerializerInfo;
  const base = parseContentType(contentType);
  const info = accepted.find((s) => s.mediaType === base);
  if (info === undefined) throw unsupportedMediaTypeError(accepted.map((s) => s.mediaType));
  return info;
}
