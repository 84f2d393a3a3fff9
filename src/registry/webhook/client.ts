// POSTs an AdmissionReview to a webhook (k8s.io/apiserver/pkg/util/webhook/client.go ClientManager
// with the rest client): over HTTPS verified with the caBundle (the system roots when it is
// empty), to clientConfig.url or to the service's endpoint with the TLS server name
// `<service>.<namespace>.svc`; `?timeout=` tells the webhook how long it has. Failures read as Go's
// HTTP client words them (`Post "URL": ...`), since that text reaches clients.
import { Agent, request } from 'node:https';
import { isIP } from 'node:net';
import type { WebhookClientConfig } from '../../api/admissionregistration/v1/webhook.js';
import { isStatusError } from '../../machinery/errors/index.js';
import type { RequestContext } from '../rest/context.js';
import { WebhookResponseError } from './response-error.js';
import type { ResolvedEndpoint, ServiceResolver } from './service-resolver.js';

export interface WebhookCall {
  readonly clientConfig: WebhookClientConfig;
  readonly timeoutSeconds: number;
  readonly body: Buffer;
}

/** Where a call goes: the URL named in errors, and the address actually dialled. */
interface Target {
  readonly url: URL;
  /** The URL as Go prints it: as configured, the service's port kept even when it is 443. */
  readonly shown: string;
  readonly servername: string;
  readonly dial: () => Promise<ResolvedEndpoint>;
}

const maxResponseBytes = 3 * 1024 * 1024;

function targetOf(
  ctx: RequestContext,
  cc: WebhookClientConfig,
  resolver: ServiceResolver | undefined,
): Target {
  if (cc.service !== undefined) {
    const svc = cc.service;
    const port = svc.port ?? 443;
    const servername = `${svc.name}.${svc.namespace}.svc`;
    const url = new URL(`https://${servername}:${String(port)}`);
    url.pathname = svc.path ?? '/';
    return {
      url,
      shown: `https://${servername}:${String(port)}${svc.path ?? ''}`,
      servername,
      dial: async () => {
        if (resolver === undefined) throw new Error(`service "${svc.name}" not found`);
        try {
          return await resolver.resolve(ctx, svc);
        } catch (err) {
          if (isStatusError(err) && err.reason === 'NotFound')
            throw new Error(`service "${svc.name}" not found`);
          throw err;
        }
      },
    };
  }
  const url = new URL(cc.url ?? '');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port === '' ? 443 : Number(url.port);
  return { url, shown: cc.url ?? '', servername: host, dial: () => Promise.resolve({ host, port }) };
}

/** Go's words for the common socket and TLS failures. */
function goReason(err: unknown, target: ResolvedEndpoint | undefined, timedOut: boolean): string {
  if (timedOut) return 'context deadline exceeded';
  const e = err as NodeJS.ErrnoException & { code?: string };
  const addr =
    target === undefined
      ? ''
      : `${target.host.includes(':') ? `[${target.host}]` : target.host}:${String(target.port)}`;
  switch (e.code ?? '') {
    case 'ECONNREFUSED':
      return `dial tcp ${addr}: connect: connection refused`;
    case 'ECONNRESET':
      return `read tcp ${addr}: read: connection reset by peer`;
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `tls: failed to verify certificate: x509: certificate is not valid for ${target?.host ?? 'the host'}`;
    default:
      return err instanceof Error ? err.message : String(err);
  }
}

/** What the plugins call webhooks through. */
export interface WebhookPoster {
  /** The webhook's answer parsed as JSON; throws an Error whose message is the reason it failed. */
  post(ctx: RequestContext, call: WebhookCall): Promise<unknown>;
  close(): void;
}

/** Calls webhooks over one keep-alive agent; close() ends its sockets. */
export class WebhookClient implements WebhookPoster {
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 64 });
  readonly #resolver: ServiceResolver | undefined;

  constructor(resolver: ServiceResolver | undefined) {
    this.#resolver = resolver;
  }

  /** The webhook's answer parsed as JSON; throws an Error whose message is the reason it failed. */
  async post(ctx: RequestContext, call: WebhookCall): Promise<unknown> {
    const target = targetOf(ctx, call.clientConfig, this.#resolver);
    target.url.searchParams.set('timeout', `${String(call.timeoutSeconds)}s`);
    const prefix = `Post ${JSON.stringify(`${target.shown}${target.url.search}`)}`;
    const timeout = AbortSignal.timeout(call.timeoutSeconds * 1000);
    const signal = AbortSignal.any([ctx.signal, timeout]);
    let endpoint: ResolvedEndpoint | undefined;
    try {
      endpoint = await target.dial();
      const { code, body } = await this.#send(call, { target, endpoint, signal });
      if (code < 200 || code > 206) throw new WebhookResponseError(code, body);
      try {
        return JSON.parse(body) as unknown;
      } catch (err) {
        throw new Error(`couldn't get version/kind; json parse error: ${(err as Error).message}`);
      }
    } catch (err) {
      // client-go's StatusError of a non-2xx answer carries no request prefix, as a transport error does.
      if (err instanceof WebhookResponseError) throw err;
      if (err instanceof Error && err.message.startsWith('Post "')) throw err;
      throw new Error(`${prefix}: ${goReason(err, endpoint, timeout.aborted)}`);
    }
  }

  #send(
    call: WebhookCall,
    o: { target: Target; endpoint: ResolvedEndpoint; signal: AbortSignal },
  ): Promise<{ code: number; body: string }> {
    const caBundle = call.clientConfig.caBundle ?? '';
    return new Promise((resolve, reject) => {
      const req = request(
        {
          agent: this.#agent,
          method: 'POST',
          host: o.endpoint.host,
          port: o.endpoint.port,
          // SNI carries names only; an IP is checked against the certificate's IP SANs.
          ...(isIP(o.target.servername) === 0 ? { servername: o.target.servername } : {}),
          path: `${o.target.url.pathname}${o.target.url.search}`,
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json, */*',
            'Content-Length': String(call.body.length),
            Host: o.target.url.host,
          },
          ...(caBundle === '' ? {} : { ca: Buffer.from(caBundle, 'base64').toString('utf8') }),
          signal: o.signal,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > maxResponseBytes) req.destroy(new Error('response body too large'));
            else chunks.push(c);
          });
          res.on('end', () => {
            resolve({ code: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(call.body);
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}
