// The request and response objects this layer serves: node:http for HTTP/1.1 and the node:http2
// compatibility objects (client-go speaks HTTP/2 over TLS).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';

export type ApiRequest = IncomingMessage | Http2ServerRequest;
export type ApiResponse = ServerResponse | Http2ServerResponse;

/** A header's first value ('' when absent), whatever shape node gives it. */
export function header(req: ApiRequest, name: string): string {
  const v = req.headers[name.toLowerCase()];
  if (Array.isArray(v)) return v[0] ?? '';
  return typeof v === 'string' ? v : '';
}

/** Connection-specific headers (Transfer-Encoding) are forbidden in HTTP/2. */
export function isHttp2(req: ApiRequest): boolean {
  return req.httpVersionMajor >= 2;
}

interface ChunkWriter {
  write(chunk: string | Uint8Array): boolean;
}

/** Writes part of a streamed body; false when the caller should wait for 'drain'. */
export function writeChunk(res: ApiResponse, chunk: string | Buffer): boolean {
  return (res as ChunkWriter).write(chunk);
}

/** Sends the status line and headers now, before any body (a watch starts this way). */
export function sendHeaders(res: ApiResponse, code: number): void {
  res.writeHead(code);
  if ('flushHeaders' in res) res.flushHeaders();
}

interface Ender {
  end(chunk?: Uint8Array): unknown;
}

/** Ends the response, with a last chunk when given. */
export function endResponse(res: ApiResponse, body?: Uint8Array): void {
  if (body === undefined) (res as Ender).end();
  else (res as Ender).end(body);
}
