// An admission webhook server for tests: HTTPS with its own throwaway CA (made with Capstan's
// certificate builder), serving 127.0.0.1 and the service names a test asks for. Each path answers
// with the test's handler; a handler may return 'hang' to never answer (for timeouts).
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { createCertificate } from '../../../src/server/tls/certificate.js';

export interface AdmissionReviewIn {
  apiVersion: string;
  kind: string;
  request: Record<string, unknown> & { uid: string; object?: Record<string, unknown> | null };
}

/**
 * An AdmissionReview to answer with, 'hang' to never answer, `{ raw }`: any HTTP answer, or
 * `{ delayMs, then }`: `then` after a while.
 */
export type WebhookReply = Record<string, unknown> | 'hang';
export type WebhookHandler = (review: AdmissionReviewIn) => WebhookReply;

export interface WebhookServer {
  readonly port: number;
  /** The CA certificate, base64 as clientConfig.caBundle takes it. */
  readonly caBundle: string;
  url(path: string): string;
  /** Sets what `path` answers. */
  handle(path: string, handler: WebhookHandler): void;
  /** The reviews received on `path`, oldest first. */
  received(path: string): AdmissionReviewIn[];
  close(): Promise<void>;
}

/** An allowing answer to `review`, with extra response fields. */
export function allow(
  review: AdmissionReviewIn,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    apiVersion: review.apiVersion,
    kind: 'AdmissionReview',
    response: { uid: review.request.uid, allowed: true, ...extra },
  };
}

/** A denying answer with the status message (and code) given. */
export function deny(review: AdmissionReviewIn, message: string, code?: number): Record<string, unknown> {
  return {
    apiVersion: review.apiVersion,
    kind: 'AdmissionReview',
    response: {
      uid: review.request.uid,
      allowed: false,
      status: { message, ...(code === undefined ? {} : { code }) },
    },
  };
}

/** An allowing answer carrying a JSON patch. */
export function patch(review: AdmissionReviewIn, ops: readonly unknown[]): Record<string, unknown> {
  return allow(review, {
    patchType: 'JSONPatch',
    patch: Buffer.from(JSON.stringify(ops)).toString('base64'),
  });
}

/** A throwaway CA and a serving certificate for 127.0.0.1, localhost and `names`. */
export function tlsMaterial(names: readonly string[]): { ca: string; cert: string; key: string } {
  const caKeys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const issuer = { name: { commonName: 'webhook-test-ca' }, ...caKeys };
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(Date.now() + 86_400_000);
  const ca = createCertificate(
    { subject: issuer.name, publicKey: caKeys.publicKey, notBefore, notAfter, isCA: true },
    issuer,
  );
  const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const cert = createCertificate(
    {
      subject: { commonName: 'webhook' },
      publicKey: keys.publicKey,
      notBefore,
      notAfter,
      isCA: false,
      altNames: ['127.0.0.1', 'localhost', ...names],
    },
    issuer,
  );
  return { ca, cert, key: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}

/**
 * A machine address other than loopback, which EndpointSlices and Endpoints accept (kube refuses
 * 127.0.0.0/8 there); undefined on a machine with none.
 */
export function nonLoopbackAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((i) => i !== undefined && !i.internal && i.family === 'IPv4')?.address;
}

/** Listens on every IPv4 address, so a Service's endpoint may name a non-loopback one. */
export async function startWebhookServer(serviceNames: readonly string[] = []): Promise<WebhookServer> {
  const tls = tlsMaterial(serviceNames);
  const handlers = new Map<string, WebhookHandler>();
  const reviews = new Map<string, AdmissionReviewIn[]>();
  const server: Server = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'https://x').pathname;
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as AdmissionReviewIn;
      reviews.set(path, [...(reviews.get(path) ?? []), review]);
      const handler = handlers.get(path);
      const reply: WebhookReply = handler === undefined ? allow(review) : handler(review);
      if (reply === 'hang') return;
      const answer = (r: Record<string, unknown>): void => {
        const raw = (r as { raw?: { status: number; body: string } }).raw;
        res.writeHead(raw?.status ?? 200, { 'content-type': 'application/json' });
        res.end(raw === undefined ? JSON.stringify(r) : raw.body);
      };
      const delayed = reply as { delayMs?: number; then?: Record<string, unknown> };
      if (delayed.delayMs === undefined || delayed.then === undefined) answer(reply);
      else setTimeout(answer, delayed.delayMs, delayed.then);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    caBundle: Buffer.from(tls.ca).toString('base64'),
    url: (path) => `https://127.0.0.1:${String(port)}${path}`,
    handle: (path, handler) => handlers.set(path, handler),
    received: (path) => reviews.get(path) ?? [],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
