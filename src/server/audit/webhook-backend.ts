// --audit-webhook-config-file (k8s.io/apiserver/plugin/pkg/audit/webhook): the events of one call are
// POSTed as an audit.k8s.io/v1 EventList to the service the kubeconfig names. Any failure (no
// answer, a status outside 2xx) is retried with kube's webhook backoff: --audit-webhook-initial-backoff
// first, each wait 1.5 times the one before with up to 20% jitter, five attempts in all; then the
// events are reported and dropped. The mode (batch, blocking, blocking-strict) is a wrapper around
// this backend (audit-modes.ts), so it answers only whether the events were delivered.
import { postToWebhook, type WebhookTarget } from '../authn/webhook-client.js';
import { auditEventJSON } from './event-json.js';
import type { AuditEvent, AuditSink } from './types.js';

export interface WebhookBackendOptions {
  readonly target: WebhookTarget;
  /** --audit-webhook-initial-backoff (kube: 10s). */
  readonly initialBackoffMs: number;
  /** Told of events that could not be delivered after the last attempt. */
  readonly onError: (err: Error, dropped: number) => void;
  /** Waits between attempts; injected so tests need not wait. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** wait.Backoff as webhook.DefaultRetryBackoffWithInitialDelay sets it. */
const backoffFactor = 1.5;
const backoffJitter = 0.2;
const backoffSteps = 5;
const timeoutMs = 30_000;

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

/** One POST; resolves on a 2xx answer, rejects on any other or on none. */
async function post(target: WebhookTarget, body: string): Promise<void> {
  const res = await postToWebhook(target, { body, timeoutMs });
  if (res.statusCode < 200 || res.statusCode > 299)
    throw new Error(`the server responded with the status code ${res.statusCode}`);
}

/** The EventList of serialised events, as kube's codec writes it. */
export function eventListBody(items: readonly string[]): string {
  return `{"kind":"EventList","apiVersion":"audit.k8s.io/v1","metadata":{},"items":[${items.join(',')}]}`;
}

export class AuditWebhookBackend implements AuditSink {
  readonly #opts: WebhookBackendOptions;
  readonly #sending = new Set<Promise<boolean>>();

  constructor(opts: WebhookBackendOptions) {
    this.#opts = opts;
  }

  /** Resolves true once delivered, false when every attempt failed (the events are then reported). */
  processEvents(...events: AuditEvent[]): Promise<boolean> {
    // Serialised now: the caller goes on changing the event objects it passed.
    const body = eventListBody(events.map(auditEventJSON));
    const sent = this.#deliver(body, events.length).finally(() => this.#sending.delete(sent));
    this.#sending.add(sent);
    return sent;
  }

  async #deliver(body: string, count: number): Promise<boolean> {
    const sleep = this.#opts.sleep ?? defaultSleep;
    let delay = this.#opts.initialBackoffMs;
    for (let attempt = 1; ; attempt++) {
      try {
        await post(this.#opts.target, body);
        return true;
      } catch (err) {
        if (attempt === backoffSteps) {
          this.#opts.onError(err instanceof Error ? err : new Error(String(err)), count);
          return false;
        }
      }
      await sleep(delay * (1 + Math.random() * backoffJitter));
      delay *= backoffFactor;
    }
  }

  /** Waits for the deliveries under way (with their retries). */
  async close(): Promise<void> {
    await Promise.all([...this.#sending]);
  }
}
