// --audit-webhook-config-file (k8s.io/apiserver/plugin/pkg/audit/webhook and audit/buffered): events
// are POSTed to the service the kubeconfig names as an audit.k8s.io/v1 EventList. In batch mode
// (the default) they are buffered and sent when --audit-webhook-batch-max-size are waiting or
// --audit-webhook-batch-max-wait has passed since the first; blocking mode sends each call's
// events at once. A send that fails is reported and dropped (the request it records is not failed).
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { WebhookTarget } from '../authn/webhook-token-authenticator.js';
import type { AuditEvent, AuditSink } from './types.js';

export const auditWebhookModes = ['batch', 'blocking', 'blocking-strict'] as const;
export type AuditWebhookMode = (typeof auditWebhookModes)[number];

export interface WebhookBackendOptions {
  readonly target: WebhookTarget;
  readonly mode: AuditWebhookMode;
  readonly maxBatchSize: number;
  readonly maxBatchWaitMs: number;
  /** Told of a batch that could not be sent. */
  readonly onError: (err: Error, dropped: number) => void;
}

const timeoutMs = 30_000;

function post(target: WebhookTarget, body: string): Promise<void> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (target.token !== undefined) headers.authorization = `Bearer ${target.token}`;
  const secure = target.server.startsWith('https:');
  const send = secure ? httpsRequest : httpRequest;
  const tls = secure
    ? {
        ...(target.caPem === undefined ? {} : { ca: target.caPem }),
        ...(target.certPem === undefined ? {} : { cert: target.certPem }),
        ...(target.keyPem === undefined ? {} : { key: target.keyPem }),
      }
    : {};
  return new Promise((resolve, reject) => {
    const req = send(target.server, { method: 'POST', headers, timeout: timeoutMs, ...tls }, (res) => {
      res.resume();
      res.on('end', () => {
        const code = res.statusCode ?? 0;
        if (code >= 200 && code <= 299) resolve();
        else reject(new Error(`the server responded with the status code ${code}`));
      });
    });
    req.on('timeout', () => req.destroy(new Error('context deadline exceeded')));
    req.on('error', reject);
    req.end(body);
  });
}

export class AuditWebhookBackend implements AuditSink {
  readonly #opts: WebhookBackendOptions;
  /** Serialised events: a later stage changes the event object the filter holds. */
  #buffer: string[] = [];
  #timer: NodeJS.Timeout | undefined;
  readonly #sending = new Set<Promise<void>>();

  constructor(opts: WebhookBackendOptions) {
    this.#opts = opts;
  }

  processEvents(...events: AuditEvent[]): void {
    const serialised = events.map((e) => JSON.stringify(e));
    if (this.#opts.mode !== 'batch') {
      this.#send(serialised);
      return;
    }
    this.#buffer.push(...serialised);
    if (this.#buffer.length >= this.#opts.maxBatchSize) this.#flush();
    else
      this.#timer ??= setTimeout(() => {
        this.#flush();
      }, this.#opts.maxBatchWaitMs).unref();
  }

  #flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    while (this.#buffer.length > 0) this.#send(this.#buffer.splice(0, this.#opts.maxBatchSize));
  }

  #send(items: string[]): void {
    const body = `{"kind":"EventList","apiVersion":"audit.k8s.io/v1","metadata":{},"items":[${items.join(',')}]}`;
    const sent = post(this.#opts.target, body)
      .catch((err: unknown) => {
        this.#opts.onError(err instanceof Error ? err : new Error(String(err)), items.length);
      })
      .finally(() => this.#sending.delete(sent));
    this.#sending.add(sent);
  }

  /** Sends what is buffered and waits for every send in flight. */
  async close(): Promise<void> {
    this.#flush();
    await Promise.all([...this.#sending]);
  }
}
