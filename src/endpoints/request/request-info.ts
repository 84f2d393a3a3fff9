// kube's RequestInfo and its resolver (k8s.io/apiserver/pkg/endpoints/request/requestinfo.go):
// which API object a URL names and the kube verb a method and query amount to.
import { parseSelector } from '../../machinery/fields/index.js';
import { isValidPathSegmentName } from '../../machinery/validation/index.js';
import { goBool } from './query-params.js';
import type { RequestURL } from './request-url.js';

export interface RequestInfo {
  /** False for /api, /apis, /apis/<group>, /healthz… (everything that names no resource). */
  readonly isResourceRequest: boolean;
  readonly path: string;
  /** A kube verb (get, list, watch, create, update, patch, delete, deletecollection, proxy) or the lower-case method. */
  readonly verb: string;
  readonly apiPrefix: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  /** The path below the version, after the verb and namespace prefix were taken off. */
  readonly parts: readonly string[];
}

export interface RequestInfoOptions {
  readonly apiPrefixes: ReadonlySet<string>;
  /** Prefixes whose versions carry no group (`api`). */
  readonly grouplessAPIPrefixes: ReadonlySet<string>;
}

export const defaultRequestInfoOptions: RequestInfoOptions = {
  apiPrefixes: new Set(['api', 'apis']),
  grouplessAPIPrefixes: new Set(['api']),
};

// `/watch/…` and `/proxy/…` put the verb in the path; proxy paths have no subresource.
const specialVerbs = new Set(['proxy', 'watch']);
const specialVerbsNoSubresources = new Set(['proxy']);
// `/namespaces/<name>/status` is the namespace's subresource, not a resource in that namespace.
const namespaceSubresources = new Set(['status', 'finalize']);

const methodVerbs: Readonly<Record<string, string>> = {
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

/** Thrown for `/api/v1/watch` and `/api/v1/proxy` with nothing after the verb. */
export class RequestInfoError extends Error {}

// strings.Split(strings.Trim(path, "/"), "/"), without a regular expression on the hot path.
function splitPath(path: string): string[] {
  let start = 0;
  let end = path.length;
  while (start < end && path.charCodeAt(start) === 47) start++;
  while (end > start && path.charCodeAt(end - 1) === 47) end--;
  return start === end ? [] : path.slice(start, end).split('/');
}

function nonResource(path: string, verb: string): RequestInfo {
  return {
    isResourceRequest: false,
    path,
    verb,
    apiPrefix: '',
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    parts: [],
  };
}

interface Draft {
  verb: string;
  namespace: string;
  parts: string[];
}

// `?watch` decides list versus watch; `fieldSelector=metadata.name=x` names the object for authorization.
function collectionVerb(query: URLSearchParams): { verb: string; name: string } {
  const watch = query.get('watch');
  const verb = watch !== null && goBool(watch) ? 'watch' : 'list';
  const selector = query.get('fieldSelector');
  if (selector === null || selector === '') return { verb, name: '' };
  const parsed = parseSelector(selector);
  if (!parsed.ok) return { verb, name: '' };
  const name = parsed.selector.requiresExactMatch('metadata.name');
  return { verb, name: name !== undefined && isValidPathSegmentName(name).length === 0 ? name : '' };
}

function positional(draft: Draft): { resource: string; name: string; subresource: string } {
  const p = draft.parts;
  const subresource = p.length >= 3 && !specialVerbsNoSubresources.has(draft.verb) ? (p[2] ?? '') : '';
  return { resource: p[0] ?? '', name: p.length >= 2 ? (p[1] ?? '') : '', subresource };
}

function takeVerbAndNamespace(method: string, parts: string[], rawUrl: string): Draft {
  let rest = parts;
  let verb = methodVerbs[method] ?? '';
  const first = rest[0] ?? '';
  if (specialVerbs.has(first)) {
    if (rest.length < 2)
      throw new RequestInfoError(`unable to determine kind and namespace from url, ${rawUrl}`);
    verb = first;
    rest = rest.slice(1);
  }
  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1] ?? '';
    if (rest.length > 2 && !namespaceSubresources.has(rest[2] ?? '')) rest = rest.slice(2);
  }
  return { verb, namespace, parts: rest };
}

/**
 * Resolves what a request names. `url.pathname` must already be percent-decoded per segment the
 * way Go decodes `URL.Path` (see decodePath). Throws RequestInfoError for a bare special verb.
 */
export function resolveRequestInfo(
  req: { readonly method?: string | undefined },
  url: RequestURL,
  opts: RequestInfoOptions = defaultRequestInfoOptions,
): RequestInfo {
  const method = (req.method ?? 'GET').toUpperCase();
  const path = decodePath(url.pathname);
  let parts = splitPath(path);
  const prefix = parts[0] ?? '';
  if (parts.length < 3 || !opts.apiPrefixes.has(prefix)) return nonResource(path, method.toLowerCase());
  parts = parts.slice(1);
  let apiGroup = '';
  if (!opts.grouplessAPIPrefixes.has(prefix)) {
    if (parts.length < 3) return nonResource(path, method.toLowerCase());
    apiGroup = parts[0] ?? '';
    parts = parts.slice(1);
  }
  const apiVersion = parts[0] ?? '';
  const draft = takeVerbAndNamespace(method, parts.slice(1), `${url.pathname}${url.search}`);
  const { resource, name: pathName, subresource } = positional(draft);
  let verb = draft.verb;
  let name = pathName;
  if (name === '' && verb === 'get') ({ verb, name } = collectionVerb(url.searchParams));
  if (name === '' && verb === 'delete') verb = 'deletecollection';
  return {
    isResourceRequest: true,
    path,
    verb,
    apiPrefix: prefix,
    apiGroup,
    apiVersion,
    namespace: draft.namespace,
    resource,
    subresource,
    name,
    parts: draft.parts,
  };
}

/**
 * The RequestInfo of a request, resolved once and shared by the server's filters and the handlers.
 * A path the parser refuses (a bare `/api/v1/watch`, an invalid escape) counts as a non-resource
 * request; no route serves such a path, so the handlers never see it as theirs.
 */
export function requestInfoFor(req: { readonly method?: string | undefined }, url: RequestURL): RequestInfo {
  try {
    return resolveRequestInfo(req, url);
  } catch (err) {
    if (!(err instanceof RequestInfoError)) throw err;
    return nonResource(url.pathname, (req.method ?? 'GET').toLowerCase());
  }
}

/** Go's URL.Path: the raw path with %XX escapes decoded (an encoded '/' becomes a separator). */
export function decodePath(rawPath: string): string {
  if (!rawPath.includes('%')) return rawPath;
  try {
    return decodeURIComponent(rawPath);
  } catch {
    throw new RequestInfoError(`invalid URL escape in ${JSON.stringify(rawPath)}`);
  }
}
