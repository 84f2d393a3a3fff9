// The raw side of a client of a running server: one request with given headers and body bytes, over
// HTTPS verified with the cluster's CA (or not, when asked), with a bearer token or a client
// certificate. The `capstan` test API commands and session replay send through it.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface ClientTarget {
  readonly server: string;
  readonly ca?: Buffer;
  readonly insecure: boolean;
  readonly token?: string;
  readonly cert?: Buffer;
  readonly key?: Buffer;
}

export interface RawCall {
  readonly method: string;
  /** Path and query. */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string | readonly string[]>>;
  readonly body?: Buffer;
}

/** Real I/O: a server that does not answer in this long is an error. */
const requestTimeoutMs = 30_000;

/** Sends one request; resolves with the status code and the body's bytes. */
export function sendRaw(t: ClientTarget, call: RawCall): Promise<{ code: number; body: Buffer }> {
  const url = new URL(call.path, `${t.server}/`);
  const headers: Record<string, string | string[]> = { 'user-agent': 'capstan-cli' };
  for (const [k, v] of Object.entries(call.headers ?? {})) headers[k] = typeof v === 'string' ? v : [...v];
  if (t.token !== undefined) headers['authorization'] = `Bearer ${t.token}`;
  // Node sends a DELETE's body unframed unless told its length.
  if (call.body !== undefined) headers['content-length'] = String(call.body.length);
  const tls = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const onResponse = (res: IncomingMessage): void => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({ code: res.statusCode ?? 0, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    };
    const options = { method: call.method, headers, timeout: requestTimeoutMs };
    const req = tls
      ? httpsRequest(
          url,
          {
            ...options,
            rejectUnauthorized: !t.insecure,
            ...(t.ca === undefined ? {} : { ca: t.ca }),
            ...(t.cert === undefined ? {} : { cert: t.cert }),
            ...(t.key === undefined ? {} : { key: t.key }),
          },
          onResponse,
        )
      : httpRequest(url, options, onResponse);
    req.on('timeout', () => req.destroy(new Error(`${t.server} did not answer in ${requestTimeoutMs} ms`)));
    req.on('error', reject);
    req.end(call.body);
  });
}
