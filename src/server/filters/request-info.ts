// What the filters need to know of a request (a subset of kube's request.RequestInfo) and a
// resolver for it after k8s.io/apiserver/pkg/endpoints/request/requestinfo.go. The endpoints
// layer owns the full parser; the server takes any resolver that yields these fields.
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

const methodVerbs: Readonly<Record<string, string>> = {
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};
const namespaceSubresources = new Set(['status', 'finalize']);

function nonResource(req: HttpRequest, path: string): RequestInfoLike {
  const verb = (req.method ?? 'GET').toLowerCase();
  return {
    isResourceRequest: false,
    path,
    verb,
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
  };
}

export const basicRequestInfo: RequestInfoResolver = (req, url) => {
  const path = url.pathname;
  const parts = path.split('/').filter((p) => p !== '');
  const prefix = parts[0];
  const grouped = prefix === 'apis';
  if ((prefix !== 'api' && !grouped) || parts.length < (grouped ? 3 : 2)) return nonResource(req, path);
  const apiGroup = grouped ? (parts[1] ?? '') : '';
  const apiVersion = parts[grouped ? 2 : 1] ?? '';
  let rest = parts.slice(grouped ? 3 : 2);
  let verb = methodVerbs[req.method ?? 'GET'] ?? '';
  if (rest[0] === 'watch') {
    verb = 'watch';
    rest = rest.slice(1);
  }
  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1] ?? '';
    if (rest.length > 2 && !namespaceSubresources.has(rest[2] ?? '')) rest = rest.slice(2);
  }
  const [resource = '', name = '', subresource = ''] = rest;
  const watchParam = url.searchParams.get('watch');
  if ((verb === 'get' || verb === 'list') && (watchParam === 'true' || watchParam === '1')) verb = 'watch';
  if (name === '' && verb === 'get') verb = 'list';
  if (name === '' && verb === 'delete') verb = 'deletecollection';
  return {
    isResourceRequest: true,
    path,
    verb,
    apiGroup,
    apiVersion,
    namespace,
    resource,
    subresource,
    name,
  };
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
