// The history path, /capstan/v1/history/<api/v1|apis/GROUP/VERSION>/[namespaces/NS/]RESOURCE/NAME,
// and what it is authorized as: a get of the object it names, so RBAC on that object decides (the
// authorization filter asks with these attributes instead of a non-resource path's).
import type { AuthorizationAttributes } from '../../registry/rest/authorizer.js';
import type { UserInfo } from '../../registry/rest/context.js';
import { testAPIPrefix } from '../test-api/prefix.js';

export const historyPrefix = `${testAPIPrefix}history/`;

export interface HistoryTarget {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly namespace: string;
  readonly name: string;
}

/** The object a history path names; undefined when the path has another shape. */
export function parseHistoryPath(pathname: string): HistoryTarget | undefined {
  if (!pathname.startsWith(historyPrefix)) return undefined;
  let parts: string[];
  try {
    parts = pathname.slice(historyPrefix.length).split('/').map(decodeURIComponent);
  } catch {
    return undefined;
  }
  if (parts.some((p) => p === '')) return undefined;
  const [root, ...rest] = parts;
  let group = '';
  let version: string | undefined;
  if (root === 'api') version = rest.shift();
  else if (root === 'apis') {
    group = rest.shift() ?? '';
    version = group === '' ? undefined : rest.shift();
  }
  if (version === undefined) return undefined;
  if (rest.length === 4 && rest[0] === 'namespaces') {
    const [, namespace = '', resource = '', name = ''] = rest;
    return { group, version, resource, namespace, name };
  }
  if (rest.length === 2) {
    const [resource = '', name = ''] = rest;
    return { group, version, resource, namespace: '', name };
  }
  return undefined;
}

/**
 * The attributes a history read is authorized with: verb get on the object it names. Undefined for
 * any other path, and for a history path of another shape (authorized as the non-resource path it is).
 */
export function historyAuthorizationAttributes(
  pathname: string,
  user: UserInfo,
): AuthorizationAttributes | undefined {
  const t = parseHistoryPath(pathname);
  if (t === undefined) return undefined;
  return {
    user,
    verb: 'get',
    resourceRequest: true,
    path: pathname,
    namespace: t.namespace,
    apiGroup: t.group,
    apiVersion: t.version,
    resource: t.resource,
    subresource: '',
    name: t.name,
  };
}
