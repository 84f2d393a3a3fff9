// The labels kube-apiserver puts on request metrics (k8s.io/apiserver/pkg/endpoints/metrics:
// CleanVerb, CleanScope).
import type { RequestURL } from '../../endpoints/request/request-url.js';
import type { HttpRequest } from '../http/types.js';
import type { RequestInfoLike } from '../filters/request-info.js';

export const requestLabels = [
  'verb',
  'dry_run',
  'group',
  'version',
  'resource',
  'subresource',
  'scope',
  'component',
] as const;
export type RequestLabel = (typeof requestLabels)[number];
export type RequestLabels = Readonly<Record<RequestLabel, string>>;

// kube's apiserver_request_duration_seconds buckets.
export const durationBuckets = [
  0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60,
];

/** kube's apiserver_request_sli_duration_seconds labels: the request labels but dry_run. */
export type SLILabels = Readonly<Record<Exclude<RequestLabel, 'dry_run'>, string>>;

export function sliLabelsOf(l: RequestLabels): SLILabels {
  const { verb, group, version, resource, subresource, scope, component } = l;
  return { verb, group, version, resource, subresource, scope, component };
}

// kube's apiserver_request_sli_duration_seconds buckets.
export const sliDurationBuckets = [
  0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60,
];

const resourceVerbs: Readonly<Record<string, string>> = {
  get: 'GET',
  list: 'LIST',
  watch: 'WATCH',
  create: 'POST',
  update: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  deletecollection: 'DELETECOLLECTION',
};
const connectSubresources = new Set(['exec', 'attach', 'portforward', 'proxy']);

/** kube's CleanVerb: the route verb, with LIST/WATCH told apart and server-side apply as APPLY. */
function cleanVerb(req: HttpRequest, info: RequestInfoLike): string {
  const method = (req.method ?? 'GET').toUpperCase();
  if (!info.isResourceRequest) return method;
  if (connectSubresources.has(info.subresource)) return 'CONNECT';
  if (info.verb === 'patch' && (req.headers['content-type'] ?? '').startsWith('application/apply-patch'))
    return 'APPLY';
  return resourceVerbs[info.verb] ?? method;
}

function cleanScope(info: RequestInfoLike): string {
  if (info.name !== '' || info.verb === 'create') return 'resource';
  if (info.namespace !== '') return 'namespace';
  return info.isResourceRequest ? 'cluster' : '';
}

/** Labels of one request; `route` is the non-resource path when the server knows it (healthz…). */
export function requestLabelsOf(
  req: HttpRequest,
  url: RequestURL,
  opts: { info: RequestInfoLike; route: string },
): RequestLabels {
  const { info } = opts;
  return {
    verb: cleanVerb(req, info),
    dry_run: url.search === '' ? '' : url.searchParams.getAll('dryRun').join(','),
    group: info.apiGroup,
    version: info.apiVersion,
    resource: info.resource,
    subresource: info.isResourceRequest ? info.subresource : opts.route,
    scope: cleanScope(info),
    component: 'apiserver',
  };
}
