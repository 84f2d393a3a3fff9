// What the filters need to know of a request (a subset of kube's request.RequestInfo, which the
// server resolves once per request with the endpoints' parser, requestInfoFor), and the checks
// made on it.

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
