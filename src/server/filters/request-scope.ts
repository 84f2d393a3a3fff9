// The per-request value the filter chain passes inward (kube keeps these in the request context).
import type { UserInfo } from '../../registry/rest/context.js';
import type { HttpRequest, HttpResponse } from '../http/types.js';
import type { RequestInfoLike } from './request-info.js';

export interface RequestScope {
  readonly req: HttpRequest;
  readonly res: HttpResponse;
  readonly url: URL;
  /** performance.now() when the request arrived. */
  readonly receivedAt: number;
  /** Aborted when the client goes away, the request times out or the server shuts down. */
  readonly abort: AbortController;
  info: RequestInfoLike;
  longRunning: boolean;
  user: UserInfo | undefined;
}

export type Handler = (scope: RequestScope) => Promise<void>;
export type Filter = (next: Handler) => Handler;

/** Wraps `handler` in `filters`, the first listed outermost (the order a request meets them). */
export function buildChain(handler: Handler, filters: readonly Filter[]): Handler {
  return filters.reduceRight<Handler>((next, filter) => filter(next), handler);
}
