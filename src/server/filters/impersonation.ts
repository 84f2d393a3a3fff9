// Impersonation (k8s.io/apiserver/pkg/endpoints/filters/impersonation.go): each thing the
// Impersonate-* headers ask for is authorized for the authenticated user with the impersonate verb
// (users, groups and serviceaccounts in the core group; uids and userextras/<key> in
// authentication.k8s.io); then the request proceeds as the impersonated user. A refusal is kube's
// 403 for that attribute; headers that name groups, extras or a uid without a user are a 500.
import type { AuthorizationAttributes, Authorizer } from '../../registry/rest/authorizer.js';
import type { UserInfo } from '../../registry/rest/context.js';
import { appendToMember } from '../../machinery/json/set-member.js';
import {
  buildImpersonationRequests,
  hasImpersonationHeaders,
  type ImpersonationKind,
  type ImpersonationRequest,
} from '../authn/impersonation-requests.js';
import { writeHttpError, writeStatus } from '../http/respond.js';
import type { Logger } from '../logging/logger.js';
import { forbiddenStatus } from './authorization.js';
import { removeHeaders } from '../http/remove-headers.js';
import type { Filter, FilterScope, Handler } from './filter-scope.js';

const resourceOf: Record<ImpersonationKind, string> = {
  ServiceAccount: 'serviceaccounts',
  User: 'users',
  Group: 'groups',
  UserExtra: 'userextras',
  UID: 'uids',
};

const allAuthenticated = 'system:authenticated';
const allUnauthenticated = 'system:unauthenticated';

function actingAs(requestor: UserInfo, r: ImpersonationRequest): AuthorizationAttributes {
  const [group = '', version = ''] = r.apiVersion.includes('/')
    ? r.apiVersion.split('/')
    : ['', r.apiVersion];
  return {
    user: requestor,
    verb: 'impersonate',
    resourceRequest: true,
    apiGroup: group,
    apiVersion: version,
    namespace: r.namespace,
    name: r.name,
    resource: resourceOf[r.kind],
    ...(r.kind === 'UserExtra' ? { subresource: r.fieldPath } : {}),
  };
}

/** The user the requests describe, with kube's system:authenticated/unauthenticated rules. */
export function impersonatedUser(
  requests: readonly ImpersonationRequest[],
  groupsSpecified: boolean,
): UserInfo {
  let name = '';
  let uid = '';
  const groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const r of requests) {
    switch (r.kind) {
      case 'ServiceAccount':
        name = `system:serviceaccount:${r.namespace}:${r.name}`;
        if (!groupsSpecified) groups.push('system:serviceaccounts', `system:serviceaccounts:${r.namespace}`);
        break;
      case 'User':
        name = r.name;
        break;
      case 'Group':
        groups.push(r.name);
        break;
      case 'UserExtra':
        appendToMember(extra, r.fieldPath, [r.name]);
        break;
      case 'UID':
        uid = r.name;
        break;
    }
  }
  if (name !== 'system:anonymous') {
    if (!groups.includes(allAuthenticated) && !groups.includes(allUnauthenticated))
      groups.push(allAuthenticated);
  } else if (!groups.includes(allUnauthenticated)) {
    groups.push(allUnauthenticated);
  }
  return {
    name,
    groups,
    ...(uid === '' ? {} : { uid }),
    ...(Object.keys(extra).length === 0 ? {} : { extra }),
  };
}

export interface ImpersonationFilterOptions {
  readonly authorizer: Authorizer;
  readonly logger: Logger;
}

export function withImpersonation(opts: ImpersonationFilterOptions): Filter {
  // Only a request that impersonates takes the async path.
  return (next) => (scope) =>
    hasImpersonationHeaders(scope.req) ? impersonate(opts, next, scope) : next(scope);
}

async function impersonate(
  opts: ImpersonationFilterOptions,
  next: Handler,
  scope: FilterScope,
): Promise<void> {
  const parsed = buildImpersonationRequests(scope.req);
  const uri = `${scope.url.pathname}${scope.url.search}`;
  if (!parsed.ok) {
    opts.logger.v(4, parsed.error);
    writeHttpError(scope.res, 500, `Internal Server Error: ${JSON.stringify(uri)}: ${parsed.error}`);
    return;
  }
  if (parsed.requests.length === 0) return next(scope);
  const requestor = scope.user;
  if (requestor === undefined) {
    writeHttpError(
      scope.res,
      500,
      `Internal Server Error: ${JSON.stringify(uri)}: no user found for request`,
    );
    return;
  }
  for (const r of parsed.requests) {
    const attrs = actingAs(requestor, r);
    let decision = 'Deny';
    let reason = '';
    try {
      ({ decision, reason } = await opts.authorizer.authorize(attrs));
    } catch (err) {
      opts.logger.v(4, 'Forbidden', { URI: scope.req.url, err: String(err) });
    }
    if (decision !== 'Allow') {
      opts.logger.v(4, 'Forbidden', { URI: scope.req.url, reason });
      writeStatus(scope.res, forbiddenStatus(attrs, reason).status);
      return;
    }
  }
  const user = impersonatedUser(parsed.requests, parsed.groupsSpecified);
  removeHeaders(scope.req, (h) => h.startsWith('impersonate-'));
  scope.audit?.impersonate(user);
  scope.user = user;
  return next(scope);
}
