// Wires the OpenAPI documents (src/endpoints/openapi) to /openapi/v2, /openapi/v3 and
// /openapi/v3/<group-version path>.
import { endResponse, header, type ApiRequest, type ApiResponse } from './http-types.js';
import { serveOpenAPI, type OpenAPIService } from './openapi/index.js';
import type { RequestURL } from './request/request-url.js';

export type { OpenAPIService } from './openapi/index.js';

/** Writes the answer when `url` is an OpenAPI path; false otherwise. */
export async function serveOpenAPIRequest(
  service: OpenAPIService,
  r: { req: ApiRequest; res: ApiResponse; url: RequestURL },
): Promise<boolean> {
  if (!r.url.pathname.startsWith('/openapi/')) return false;
  const answer = await serveOpenAPI(service, {
    path: r.url.pathname,
    query: r.url.searchParams,
    accept: header(r.req, 'accept'),
    ifNoneMatch: header(r.req, 'if-none-match') || undefined,
  });
  if (answer === undefined) return false;
  for (const [name, value] of Object.entries(answer.headers)) r.res.setHeader(name, value);
  r.res.statusCode = answer.status;
  if (answer.body !== undefined) r.res.setHeader('Content-Length', String(answer.body.length));
  endResponse(r.res, answer.body);
  return true;
}
