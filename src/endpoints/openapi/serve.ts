// HTTP semantics of /openapi/v2, /openapi/v3 and /openapi/v3/<path>, as kube-openapi serves them
// (pkg/handler and pkg/handler3): content negotiation (v2 in JSON or gnostic protobuf, v3 in
// JSON), quoted SHA-512 ETags, 304 on a matching
// If-None-Match, and for hash-pinned v3 URLs a redirect when the hash is stale or immutable
// caching headers when it is current. The endpoints layer writes the returned answer.
import type { OpenAPIDocument, OpenAPIService } from './openapi-service.js';
import { serverRelativeURL } from './openapi-service.js';

export interface OpenAPIRequest {
  /** URL path, e.g. `/openapi/v3/api/v1`. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly accept?: string | undefined;
  readonly ifNoneMatch?: string | undefined;
  readonly now?: Date;
}

export interface OpenAPIAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
}

/** Whether an Accept header admits JSON (the only encoding of v3 served; other clients get 406). */
export function acceptsJSON(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((clause) => {
    const [range = '', ...params] = clause.split(';').map((s) => s.trim().toLowerCase());
    if (params.some((p) => /^q=0(\.0*)?$/.test(p))) return false;
    return range === 'application/json' || range === 'application/*' || range === '*/*';
  });
}

/** What /openapi/v2 answers in: the content type written and which bytes. */
export interface V2Format {
  readonly contentType: string;
  readonly protobuf: boolean;
}

const protobufV2 = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/**
 * kube-openapi's offers for /openapi/v2, in order: JSON, the older protobuf name kubectl asks for
 * (answered under the current name), and the current protobuf name.
 */
const v2Offers: readonly (readonly [type: string, subtype: string, format: V2Format])[] = [
  ['application', 'json', { contentType: 'application/json', protobuf: false }],
  [
    'application',
    'com.github.proto-openapi.spec.v2@v1.0+protobuf',
    { contentType: protobufV2, protobuf: true },
  ],
  [
    'application',
    'com.github.proto-openapi.spec.v2.v1.0+protobuf',
    { contentType: protobufV2, protobuf: true },
  ],
];

interface AcceptClause {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

/** goautoneg.ParseAccept: the clauses by falling quality, specific ranges before wildcards. */
function acceptClauses(accept: string): AcceptClause[] {
  const clauses: AcceptClause[] = [];
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';').map((x) => x.trim().toLowerCase());
    const [type = '', subtype, ...rest] = range.split('/').map((x) => x.trim());
    if (rest.length > 0 || (subtype === undefined && type !== '*')) continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=', 2).map((x) => x.trim());
      if (name === 'q' && value !== undefined) q = Number.parseFloat(value) || 0;
    }
    clauses.push({ type, subtype: subtype ?? '*', q });
  }
  const rank = (c: AcceptClause): number => (c.type === '*' ? 2 : c.subtype === '*' ? 1 : 0);
  return clauses
    .map((c, i) => ({ c, i }))
    .sort((a, b) => b.c.q - a.c.q || rank(a.c) - rank(b.c) || a.i - b.i)
    .map((x) => x.c);
}

/** The format of /openapi/v2 an Accept header asks for first; undefined when none fits (406). */
export function negotiateV2(accept: string | undefined): V2Format | undefined {
  const header = accept === undefined || accept.trim() === '' ? '*/*' : accept;
  for (const clause of acceptClauses(header)) {
    if (clause.q <= 0) continue;
    for (const [type, subtype, format] of v2Offers) {
      if (
        (clause.type === type || clause.type === '*') &&
        (clause.subtype === subtype || clause.subtype === '*')
      )
        return format;
    }
  }
  return undefined;
}

function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === `"${etag}"`;
  });
}

function answer(doc: OpenAPIDocument, req: OpenAPIRequest, extra: Record<string, string>): OpenAPIAnswer {
  const headers = {
    'Content-Type': 'application/json',
    ETag: `"${doc.etag}"`,
    'Last-Modified': doc.lastModified.toUTCString(),
    ...extra,
  };
  if (etagMatches(req.ifNoneMatch, doc.etag)) return { status: 304, headers };
  return { status: 200, headers, body: doc.body };
}

const notAcceptable: OpenAPIAnswer = { status: 406, headers: { Vary: 'Accept' } };

/** Answers an /openapi request, or returns undefined when the path is not an OpenAPI path. */
export async function serveOpenAPI(
  service: OpenAPIService,
  req: OpenAPIRequest,
): Promise<OpenAPIAnswer | undefined> {
  if (req.path === '/openapi/v2') {
    const format = negotiateV2(req.accept);
    if (format === undefined) return notAcceptable;
    const doc = format.protobuf ? await service.v2ProtoDocument() : service.v2Document();
    return answer(doc, req, { Vary: 'Accept', 'Content-Type': format.contentType });
  }
  if (req.path === '/openapi/v3' || req.path === '/openapi/v3/') {
    return answer(service.v3IndexDocument(), req, {});
  }
  if (!req.path.startsWith('/openapi/v3/')) return undefined;
  const name = req.path.slice('/openapi/v3/'.length);
  if (!acceptsJSON(req.accept)) return notAcceptable;
  const doc = service.v3Document(name);
  if (doc === undefined)
    return {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      body: Buffer.from('404 page not found\n'),
    };
  const hash = req.query.get('hash');
  if (hash === null || hash === '') return answer(doc, req, { Vary: 'Accept' });
  if (hash !== doc.etag) {
    return {
      status: 301,
      headers: { Location: serverRelativeURL(name, doc.etag), Vary: 'Accept', ETag: `"${doc.etag}"` },
    };
  }
  const expires = new Date((req.now ?? new Date()).getTime());
  expires.setUTCFullYear(expires.getUTCFullYear() + 1);
  return answer(doc, req, {
    Vary: 'Accept',
    'Cache-Control': 'public, immutable',
    Expires: expires.toUTCString(),
  });
}
