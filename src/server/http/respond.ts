// The few ways this layer answers on its own; API responses are written by the endpoints layer.
import type { Status } from '../../api/meta.js';
import { orderedStatus } from '../../machinery/errors/status-order.js';
import type { HttpResponse } from './types.js';

/** Go's http.Error: plain text, nosniff, the message and a newline. */
export function writeHttpError(res: HttpResponse, code: number, message: string): void {
  if (res.headersSent) return;
  res.statusCode = code;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(`${message}\n`);
}

/** A 200 with a plain-text body (the healthz `ok`). */
export function writeText(res: HttpResponse, body: string): void {
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(body);
}

export function writeJson(res: HttpResponse, code: number, body: unknown): void {
  res.statusCode = code;
  res.setHeader('Content-Type', 'application/json');
  res.end(`${JSON.stringify(body)}\n`);
}

/** A Status body with its code; kube's responsewriters.ErrorNegotiated for JSON clients. */
export function writeStatus(res: HttpResponse, status: Status): void {
  if (res.headersSent) return;
  const retryAfter = status.details?.retryAfterSeconds;
  if (retryAfter !== undefined && retryAfter > 0) res.setHeader('Retry-After', String(retryAfter));
  res.setHeader('Cache-Control', 'no-cache, private');
  writeJson(res, status.code, orderedStatus(status));
}

/** res.write for either response type (their overloads do not unify). */
export function writeChunk(res: HttpResponse, chunk: string | Uint8Array): boolean {
  return 'stream' in res ? res.write(chunk) : res.write(chunk);
}
