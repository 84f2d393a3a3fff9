// What the filters need to know of a request (a subset of kube's request.RequestInfo); the endpoints
// layer owns the parser (k8s.io/apiserver/pkg/endpoints/request/requestinfo.go).
import { RequestInfoError, resolveRequestInfo } from '../../endpoints/request/request-info.js';
import type { HttpRequest } from '../http/types.js';

export interface RequestInfoLike {
  readonly isResourceRequest: boolean;
  readonly path: string;
  /** kube verbs for resource requests (get, list, watch, create…); the lower-case method otherwise. */
  readonly verb: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
}

export type RequestInfoResolver = (req: HttpRequest, url: URL) => RequestInfoLike;

/**
 * The request info the filters use (metrics labels, max-in-flight, long-running checks): the
 * endpoints layer's kube-accurate parser, so the filters and the handlers never disagree. A path
 * the parser refuses (a bare `/api/v1/watch`) counts as a non-resource request here; the handler
 * answers it.
 */
export const basicRequestInfo: RequestInfoResolver = (req, url) => {
  try {
    return resolveRequestInfo(req, url);
  } catch (err) {
    if (!(err instanceof RequestInfoError)) throw err;
    return {
      isResourceRequest: false,
      path: url.pathname,
      verb: (req.method ?? 'GET').toLowerCase(),
      apiGroup: '',
      apiVersion: '',
      namespace: '',
      resource: '',
      subresource: '',
      name: '',
    };
  }
};

const longRunningVerbs = new Set(['watch', 'proxy']);
const longRunningSubresources = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

/** kube's BasicLongRunningRequestCheck with the kube-apiserver's sets. */
export function isLongRunning(info: RequestInfoLike): boolean {
  if (longRunningVerbs.has(info.verb)) return true;
  return info.isResourceRequest && longRunningSubresources.has(info.subresource);
}

const readOnlyVerbs = new Set(['get', 'list', 'watch']);

export function isMutating(info: RequestInfoLike): boolean {
  return !readOnlyVerbs.has(info.verb);
}
