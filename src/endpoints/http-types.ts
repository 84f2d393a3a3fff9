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
  end(chunk?: Uint8Array | string, encoding?: BufferEncoding): unknown;
}

/** Bodies up to this size end an HTTP/1.1 response in the write that carries its headers. */
const oneWriteBytes = 16 * 1024;

/**
 * The bytes as a latin1 string (one character per byte), when they may end an HTTP/1.1 response as
 * one: Node writes a Buffer after the header text with writev, while a latin1 string joins the
 * header text and leaves in a single write() (2–3 µs less per response on this machine). HTTP/2
 * frames its data itself; big bodies would only be copied.
 */
function asOneWrite(res: ApiResponse, bytes: Uint8Array, extra: number): string | undefined {
  if (bytes.length + extra > oneWriteBytes || 'stream' in res || res.headersSent) return undefined;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** Ends the response, with a last chunk when given. */
export function endResponse(res: ApiResponse, body?: Uint8Array): void {
  if (body === undefined) {
    (res as Ender).end();
    return;
  }
  const text = asOneWrite(res, body, 0);
  if (text === undefined) (res as Ender).end(body);
  else (res as Ender).end(text, 'latin1');
}

const newline = Buffer.from('\n');

/** Ends the response with `json` and a newline (as Go's Encoder writes), without copying a large `json`. */
export function endWithJSONLine(res: ApiResponse, json: Uint8Array): void {
  const text = asOneWrite(res, json, 1);
  if (text !== undefined) {
    (res as Ender).end(`${text}\n`, 'latin1');
    return;
  }
  writeChunk(res, Buffer.from(json.buffer, json.byteOffset, json.byteLength));
  (res as Ender).end(newline);
}
