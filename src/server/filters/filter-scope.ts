// The per-request value the filter chain passes inward (kube keeps these in the request context):
// the request with its URL and RequestInfo parsed once, which the API handler takes as it is.
import type { APIRequest } from '../../endpoints/api-handler.js';
import type { LatencyTrackers } from '../../endpoints/request/latency-trackers.js';
import type { RequestInfo } from '../../endpoints/request/request-info.js';
import type { RequestURL } from '../../endpoints/request/request-url.js';
import type { UserInfo } from '../../registry/rest/context.js';
import type { RequestAudit } from '../audit/request-audit.js';
import type { HttpRequest, HttpResponse } from '../http/types.js';

export class FilterScope implements APIRequest, LatencyTrackers {
  readonly req: HttpRequest;
  readonly res: HttpResponse;
  readonly url: RequestURL;
  /** performance.now() when the request arrived. */
  readonly receivedAt: number;
  readonly info: RequestInfo;
  readonly longRunning: boolean;
  user: UserInfo | undefined = undefined;
  /** Set by the audit filter when the policy audits this request. */
  audit: RequestAudit | undefined = undefined;
  // What the SLI latency leaves out (LatencyTrackers), kept here rather than in an object of their
  // own that every request would make.
  mutatingWebhookMs = 0;
  validatingWebhookMs = 0;
  apfQueueWaitMs = 0;
  /**
   * The code a filter ended the request with in self-defense (429 from max-in-flight or priority and
   * fairness, 504 from the timeout), 0 otherwise: apiserver_request_terminations_total counts it.
   */
  terminationCode = 0;
  // Node makes a controller's signal on first read, and that is what costs (microseconds): most
  // requests never read it.
  readonly #abort = new AbortController();

  constructor(init: {
    req: HttpRequest;
    res: HttpResponse;
    url: RequestURL;
    info: RequestInfo;
    longRunning: boolean;
  }) {
    this.req = init.req;
    this.res = init.res;
    this.url = init.url;
    this.info = init.info;
    this.longRunning = init.longRunning;
    this.receivedAt = performance.now();
  }

  /** The request's latency trackers: this scope's own fields. */
  get latency(): LatencyTrackers {
    return this;
  }

  /** Aborted when the client goes away, the request times out or the server shuts down. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  abort(reason: Error): void {
    this.#abort.abort(reason);
  }
}

export type Handler = (scope: FilterScope) => Promise<void>;
export type Filter = (next: Handler) => Handler;

/**
 * `next(scope)` with `done` run once it has settled, however it ends, and its outcome passed on (a
 * synchronous throw is thrown on, for the panic-recovery filter): what an async filter's
 * try/finally around `await next(scope)` does, with one promise where the async function makes
 * three and takes more turns of the microtask queue on every request.
 */
export function thenFinally(next: Handler, scope: FilterScope, done: () => void): Promise<void> {
  let p: Promise<void>;
  try {
    p = next(scope);
  } catch (err) {
    done();
    throw err;
  }
  return p.then(done, (err: unknown) => {
    done();
    throw err;
  });
}

/** Wraps `handler` in `filters`, the first listed outermost (the order a request meets them). */
export function buildChain(handler: Handler, filters: readonly Filter[]): Handler {
  return filters.reduceRight<Handler>((next, filter) => filter(next), handler);
}
