// Writes a finished body with its status code, Content-Type, warnings and, for large bodies a
// client accepts gzipped, compression (kube's deferredResponseWriter, 128 KiB threshold).
import { gzipSync } from 'node:zlib';
import { header } from '../http-types.js';
import type { Exchange } from './exchange.js';

/** kube's deferredResponseWriter compresses bodies past this size. */
export const gzipThresholdBytes = 128 * 1024;

export function acceptsGzip(ex: Exchange): boolean {
  return header(ex.req, 'accept-encoding')
    .split(',')
    .some((token) => (token.split(';')[0] ?? '').trim().toLowerCase() === 'gzip');
}

/** Sets the recorded Warning headers; call before the status line goes out. */
export function flushWarnings(ex: Exchange): void {
  const values = ex.warnings.headers();
  if (values.length > 0 && !ex.res.headersSent) ex.res.setHeader('Warning', [...values]);
}

export function writeBody(ex: Exchange, code: number, opts: { contentType: string; body: string }): void {
  const { res } = ex;
  if (res.headersSent) {
    res.end();
    return;
  }
  flushWarnings(ex);
  let bytes = Buffer.from(opts.body, 'utf8');
  res.setHeader('Content-Type', opts.contentType);
  if (bytes.length > gzipThresholdBytes && acceptsGzip(ex)) {
    bytes = gzipSync(bytes);
    res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Vary', 'Accept-Encoding');
  }
  res.setHeader('Content-Length', String(bytes.length));
  res.statusCode = code;
  res.end(bytes);
}

/** ?pretty=true, or a browser or command-line user agent (kube's isPrettyPrint). */
export function isPrettyPrint(ex: Exchange): boolean {
  const pretty = ex.url.searchParams.get('pretty');
  if (pretty !== null && pretty !== '') return ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(pretty);
  const agent = header(ex.req, 'user-agent');
  return agent.startsWith('curl') || agent.startsWith('Wget') || agent.startsWith('Mozilla/5.0');
}
