// Authorization (k8s.io/apiserver/pkg/endpoints/filters/authorization.go): the request's attributes
// (from the RequestInfo and the authenticated user) go to the authorizer; anything but Allow is
// answered 403 with kube's Forbidden message (responsewriters.Forbidden), an authorizer error with
// kube's plain-text 500 (responsewriters.InternalError).
import { statusError, newForbidden } from '../../machinery/errors/index.js';
import type { AuthorizationAttributes, Authorizer } from '../../registry/rest/authorizer.js';
import { anonymousUser, type UserInfo } from '../../registry/rest/context.js';
import { writeHttpError, writeStatus } from '../http/respond.js';
import type { Logger } from '../logging/logger.js';
import { historyAuthorizationAttributes } from '../history/history-path.js';
import type { RequestInfoLike } from './request-info.js';
import type { Filter } from './filter-scope.js';
import type { RequestURL } from '../../endpoints/request/request-url.js';

// The verbs whose selectors kube's RequestInfo keeps for the authorizers.
const selectorVerbs: ReadonlySet<string> = new Set(['list', 'watch', 'deletecollection']);

/**
 * GetAuthorizerAttributes: the RequestInfo's fields and the user, and with `url` a collection
 * request's fieldSelector and labelSelector as sent (the query is parsed already when there is one;
 * the selectors themselves are parsed only by an authorizer that reads them).
 */
export function authorizationAttributes(
  info: RequestInfoLike,
  user: UserInfo,
  url?: RequestURL,
): AuthorizationAttributes {
  if (!info.isResourceRequest) return { user, verb: info.verb, resourceRequest: false, path: info.path };
  const attrs: AuthorizationAttributes = {
    user,
    verb: info.verb,
    resourceRequest: true,
    path: info.path,
    namespace: info.namespace,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name,
  };
  if (url === undefined || url.search === '' || !selectorVerbs.has(info.verb)) return attrs;
  const fieldSelector = url.searchParams.get('fieldSelector') ?? '';
  const labelSelector = url.searchParams.get('labelSelector') ?? '';
  if (fieldSelector === '' && labelSelector === '') return attrs;
  return {
    ...attrs,
    ...(fieldSelector === '' ? {} : { fieldSelector }),
    ...(labelSelector === '' ? {} : { labelSelector }),
  };
}

// kube's sanitizer for messages that echo the request.
const sanitize = (s: string): string =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** responsewriters.forbiddenMessage. */
export function forbiddenMessage(attrs: AuthorizationAttributes): string {
  const user = attrs.user.name;
  if (!attrs.resourceRequest)
    return `User ${JSON.stringify(user)} cannot ${attrs.verb} path ${JSON.stringify(attrs.path ?? '')}`;
  const sub = attrs.subresource ?? '';
  const resource = sub === '' ? (attrs.resource ?? '') : `${attrs.resource ?? ''}/${sub}`;
  const what = `User ${JSON.stringify(user)} cannot ${attrs.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(attrs.apiGroup ?? '')}`;
  const ns = attrs.namespace ?? '';
  return ns === '' ? `${what} at the cluster scope` : `${what} in the namespace ${JSON.stringify(ns)}`;
}

/** The 403 Status of responsewriters.Forbidden: NewForbidden over the request's group and resource. */
export function forbiddenStatus(
  attrs: AuthorizationAttributes,
  reason: string,
): ReturnType<typeof newForbidden> {
  const msg = sanitize(forbiddenMessage(attrs));
  const cause = reason === '' ? msg : `${msg}: ${reason}`;
  const group = attrs.apiGroup ?? '';
  const resource = attrs.resource ?? '';
  if (group === '' && resource === '')
    return statusError({ reason: 'Forbidden', message: `forbidden: ${cause}`, details: {} });
  return newForbidden({ group, resource }, attrs.name ?? '', cause);
}

export interface AuthorizationFilterOptions {
  readonly authorizer: Authorizer;
  readonly logger: Logger;
}

export function withAuthorization(opts: AuthorizationFilterOptions): Filter {
  return (next) => async (scope) => {
    const user = scope.user ?? anonymousUser;
    // A history read is authorized as a get of the object it names (Capstan's own path).
    const attrs =
      historyAuthorizationAttributes(scope.url.pathname, user) ??
      authorizationAttributes(scope.info, user, scope.url);
    let decision: string;
    let reason: string;
    try {
      ({ decision, reason } = await opts.authorizer.authorize(attrs));
    } catch (err) {
      const text = err instanceof Error ? err.message : String(err);
      opts.logger.error('authorizer failed', err);
      const uri = `${scope.url.pathname}${scope.url.search}`;
      writeHttpError(scope.res, 500, sanitize(`Internal Server Error: ${JSON.stringify(uri)}: ${text}`));
      return;
    }
    if (scope.audit !== undefined) {
      // kube's authorization annotations on the audit event.
      scope.audit.annotate('authorization.k8s.io/decision', decision === 'Allow' ? 'allow' : 'forbid');
      scope.audit.annotate('authorization.k8s.io/reason', reason);
    }
    if (decision === 'Allow') {
      await next(scope);
      return;
    }
    opts.logger.v(4, 'Forbidden', { URI: scope.req.url, reason });
    if (!scope.res.headersSent) scope.res.setHeader('X-Content-Type-Options', 'nosniff');
    writeStatus(scope.res, forbiddenStatus(attrs, reason).status);
  };
}
