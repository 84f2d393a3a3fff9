// HTTP semantics of /openapi/v2, /openapi/v3 and /openapi/v3/<path>, as kube-openapi serves them
// (pkg/handler and pkg/handler3): content negotiation, quoted SHA-512 ETags, 304 on a matching
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

/** Whether an Accept header admits JSON (the only encoding served; protobuf-only clients get 406). */
export function acceptsJSON(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((clause) => {
    const [range = '', ...params] = clause.split(';').map((s) => s.trim().toLowerCase());
    if (params.some((p) => /^q=0(\.0*)?$/.test(p))) return false;
    return range === 'application/json' || range === 'application/*' || range === '*/*';
  });
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
export function serveOpenAPI(service: OpenAPIService, req: OpenAPIRequest): OpenAPIAnswer | undefined {
  if (req.path === '/openapi/v2') {
    if (!acceptsJSON(req.accept)) return notAcceptable;
    return answer(service.v2Document(), req, { Vary: 'Accept' });
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
