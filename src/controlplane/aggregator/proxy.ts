// Forwards a request to an aggregated API server (kube-aggregator's proxyHandler in
// pkg/apiserver/handler_proxy.go): over HTTPS to a ready endpoint of the APIService's Service,
// verified with its caBundle (or not at all with insecureSkipTLSVerify), with the authenticated user
// in the front-proxy headers and the proxy's client certificate when the server has one. The
// caller's credentials are not passed on. Failures are answered as Go's http.Error writes them.
// Upgrade requests (websockets, SPDY: exec-like subresources of aggregated APIs) are forwarded with
// their Upgrade header; once the server switches protocols, bytes are copied both ways
// (UpgradeAwareHandler).
import { Agent, request, type RequestOptions } from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import type { APIRequest } from '../../endpoints/api-handler.js';
import { hijack, upgradeConnection, type UpgradeConnection } from '../../server/http/upgrade.js';
import type { UserInfo } from '../../registry/rest/context.js';

/** The front-proxy client certificate and key (kube's --proxy-client-cert-file/--proxy-client-key-file). */
export interface ProxyClientCert {
  readonly cert: string;
  readonly key: string;
}

export interface ProxyTarget {
  readonly host: string;
  readonly port: number;
  /** `<service>.<namespace>.svc`: the name the server's certificate is checked against. */
  readonly serverName: string;
  /** PEM; absent: the system roots. */
  readonly ca?: string;
  readonly insecureSkipTLSVerify: boolean;
}

// Hop-by-hop headers (RFC 7230 §6.1) and those HTTP/2 forbids; never forwarded either way.
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
]);

// What the caller proved its identity with, and identity headers only the proxy may set.
const credentialHeaders = ['authorization', 'impersonate-user', 'impersonate-group', 'impersonate-uid'];
const identityPrefixes = ['x-remote-', 'impersonate-extra-'];

function forwardedHeaders(headers: IncomingHttpHeaders, user: UserInfo): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name.startsWith(':') || hopByHop.has(name)) continue;
    if (credentialHeaders.includes(name) || identityPrefixes.some((p) => name.startsWith(p))) continue;
    out[name] = value;
  }
  // transport.SetAuthProxyHeaders: the user, each group, each extra value under its escaped key.
  out['x-remote-user'] = user.name;
  if (user.groups.length > 0) out['x-remote-group'] = [...user.groups];
  for (const [key, values] of Object.entries(user.extra ?? {}))
    out[`x-remote-extra-${encodeURIComponent(key)}`] = [...values];
  return out;
}

/** Go's http.Error: text/plain, nosniff, the message and a newline. */
export function writeProxyError(res: APIRequest['res'], code: number, message: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.statusCode = code;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(`${message}\n`);
}

function copyResponse(from: IncomingMessage, to: APIRequest['res']): void {
  for (const [name, value] of Object.entries(from.headers)) {
    if (value === undefined || hopByHop.has(name)) continue;
    to.setHeader(name, value);
  }
  to.statusCode = from.statusCode ?? 502;
  if ('flushHeaders' in to) to.flushHeaders();
  from.pipe(to as NodeJS.WritableStream);
}

export class AggregatorProxy {
  readonly #agent: Agent;
  readonly #client: ProxyClientCert | undefined;

  constructor(client: ProxyClientCert | undefined) {
    this.#client = client;
    this.#agent = new Agent({ keepAlive: true, maxSockets: 128 });
  }

  /** The TLS and address part of a request to `target` (also what the availability check uses). */
  options(target: ProxyTarget): RequestOptions {
    return {
      agent: this.#agent,
      host: target.host,
      port: target.port,
      ...(isIP(target.serverName) === 0 ? { servername: target.serverName } : {}),
      ...(target.ca === undefined ? {} : { ca: target.ca }),
      rejectUnauthorized: !target.insecureSkipTLSVerify,
      ...(target.insecureSkipTLSVerify ? { checkServerIdentity: () => undefined } : {}),
      ...(this.#client === undefined ? {} : { cert: this.#client.cert, key: this.#client.key }),
    };
  }

  /** Sends `r` to `target` and streams the answer back; `onFailure` hears of unreachable servers. */
  forward(r: APIRequest, target: ProxyTarget, onFailure: (err: Error) => void): Promise<void> {
    const { req, res, url } = r;
    const user = r.user ?? { name: 'system:anonymous', groups: ['system:unauthenticated'] };
    const upgrade = upgradeConnection(req) === undefined ? undefined : req.headers.upgrade;
    return new Promise((resolve) => {
      const out = request(
        {
          ...this.options(target),
          // An upgraded connection leaves the pool for good: it gets one of its own.
          ...(upgrade === undefined ? {} : { agent: false }),
          method: req.method ?? 'GET',
          path: `${url.pathname}${url.search}`,
          headers: {
            ...forwardedHeaders(req.headers, user),
            host: `${target.serverName}:${String(target.port)}`,
            ...(upgrade === undefined ? {} : { connection: 'Upgrade', upgrade }),
          },
        },
        (answer) => {
          copyResponse(answer, res);
          answer.on('end', () => {
            resolve();
          });
          answer.on('error', () => {
            res.end();
            resolve();
          });
        },
      );
      out.on('upgrade', (answer: IncomingMessage, backend: Duplex, backendHead: Buffer) => {
        splice(hijack(req, res), { answer, socket: backend, head: backendHead });
        resolve();
      });
      out.on('error', (err) => {
        onFailure(err);
        writeProxyError(res, 503, `error trying to reach service: ${goDialError(err, target)}`);
        resolve();
      });
      // The client went away (a watch ended): stop the request to the server too.
      res.once('close', () => {
        if (!res.writableFinished) out.destroy();
      });
      (req as NodeJS.ReadableStream).pipe(out);
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}

/** The server's 101 passed on as it came, then bytes copied both ways until either side ends. */
function splice(
  client: UpgradeConnection,
  server: { answer: IncomingMessage; socket: Duplex; head: Buffer },
): void {
  const { answer, socket: backend, head: backendHead } = server;
  const lines = [
    `HTTP/1.1 ${String(answer.statusCode ?? 101)} ${answer.statusMessage ?? 'Switching Protocols'}`,
  ];
  const raw = answer.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) lines.push(`${raw[i] ?? ''}: ${raw[i + 1] ?? ''}`);
  client.socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  if (backendHead.length > 0) client.socket.write(backendHead);
  if (client.head.length > 0) backend.write(client.head);
  const end = (): void => {
    client.socket.destroy();
    backend.destroy();
  };
  for (const side of [client.socket, backend]) side.once('close', end).once('error', end);
  backend.pipe(client.socket);
  client.socket.pipe(backend);
}

/** Go's words for a failed dial or handshake, as the aggregator's error responder quotes them. */
export function goDialError(err: Error, target: { host: string; port: number }): string {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  const addr = `${target.host.includes(':') ? `[${target.host}]` : target.host}:${String(target.port)}`;
  switch (code) {
    case 'ECONNREFUSED':
      return `dial tcp ${addr}: connect: connection refused`;
    case 'ECONNRESET':
      return `read tcp ${addr}: read: connection reset by peer`;
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
    default:
      return err.message;
  }
}
