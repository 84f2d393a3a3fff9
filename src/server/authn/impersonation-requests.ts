// What the Impersonate-* headers ask for (buildImpersonationRequests of
// k8s.io/apiserver/pkg/endpoints/filters/impersonation.go): one request per user, group, extra value
// and uid, each to be authorized with the impersonate verb before the request changes hands.
import { isDNS1123Label, isDNS1123Subdomain } from '../../machinery/validation/dns.js';
import type { HttpRequest } from '../http/types.js';

export const impersonateUserHeader = 'impersonate-user';
export const impersonateGroupHeader = 'impersonate-group';
export const impersonateUIDHeader = 'impersonate-uid';
export const impersonateExtraPrefix = 'impersonate-extra-';

export const impersonationKinds = ['ServiceAccount', 'User', 'Group', 'UserExtra', 'UID'] as const;
export type ImpersonationKind = (typeof impersonationKinds)[number];

/** kube's v1.ObjectReference as the filter fills it. */
export interface ImpersonationRequest {
  readonly kind: ImpersonationKind;
  readonly namespace: string;
  readonly name: string;
  readonly apiVersion: string;
  /** The extra key of a UserExtra. */
  readonly fieldPath: string;
}

const saPrefix = 'system:serviceaccount:';

/** serviceaccount.SplitUsername: `system:serviceaccount:<namespace>:<name>` with valid names. */
export function splitServiceAccountUsername(username: string): [string, string] | undefined {
  if (!username.startsWith(saPrefix)) return undefined;
  const parts = username.slice(saPrefix.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace = '', name = ''] = parts;
  if (isDNS1123Label(namespace).length > 0 || isDNS1123Subdomain(name).length > 0) return undefined;
  return [namespace, name];
}

/** Cheap enough for every request: no allocation unless an Impersonate-* header is there. */
export function hasImpersonationHeaders(req: HttpRequest): boolean {
  const headers = req.headers;
  if (headers[impersonateUserHeader] !== undefined) return true;
  if (headers[impersonateGroupHeader] !== undefined || headers[impersonateUIDHeader] !== undefined)
    return true;
  for (const name in headers) if (name.startsWith(impersonateExtraPrefix)) return true;
  return false;
}

/** url.PathUnescape, the original key when it does not unescape. */
function unescapeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/** Every value of each header, in the order sent (Node joins repeated headers in `headers`). */
function headerValues(req: HttpRequest): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] ?? '').toLowerCase();
    if (!name.startsWith('impersonate-')) continue;
    const values = out.get(name) ?? [];
    values.push(raw[i + 1] ?? '');
    out.set(name, values);
  }
  return out;
}

const ref = (
  kind: ImpersonationKind,
  name: string,
  more: Partial<Omit<ImpersonationRequest, 'kind' | 'name'>> = {},
): ImpersonationRequest => ({ kind, name, namespace: '', apiVersion: '', fieldPath: '', ...more });

/** Go's %v of an ObjectReference, for the error text. */
const formatRef = (r: ImpersonationRequest): string =>
  `{${r.kind} ${r.namespace} ${r.name}  ${r.apiVersion}  ${r.fieldPath}}`;

export type ParsedImpersonation =
  | {
      readonly ok: true;
      readonly requests: readonly ImpersonationRequest[];
      readonly groupsSpecified: boolean;
    }
  | { readonly ok: false; readonly error: string };

export function buildImpersonationRequests(req: HttpRequest): ParsedImpersonation {
  const headers = headerValues(req);
  const requests: ImpersonationRequest[] = [];
  const requestedUser = headers.get(impersonateUserHeader)?.[0] ?? '';
  const hasUser = requestedUser !== '';
  if (hasUser) {
    const sa = splitServiceAccountUsername(requestedUser);
    requests.push(
      sa === undefined ? ref('User', requestedUser) : ref('ServiceAccount', sa[1], { namespace: sa[0] }),
    );
  }
  const groups = headers.get(impersonateGroupHeader) ?? [];
  for (const group of groups) requests.push(ref('Group', group));
  let hasUserExtra = false;
  for (const [name, values] of headers) {
    if (!name.startsWith(impersonateExtraPrefix)) continue;
    hasUserExtra = true;
    const key = unescapeExtraKey(name.slice(impersonateExtraPrefix.length));
    for (const value of values)
      requests.push(ref('UserExtra', value, { apiVersion: 'authentication.k8s.io/v1', fieldPath: key }));
  }
  const uid = headers.get(impersonateUIDHeader)?.[0] ?? '';
  if (uid !== '') requests.push(ref('UID', uid, { apiVersion: 'authentication.k8s.io/v1' }));
  if ((groups.length > 0 || hasUserExtra || uid !== '') && !hasUser) {
    return {
      ok: false,
      error: `requested [${requests.map(formatRef).join(' ')}] without impersonating a user`,
    };
  }
  return { ok: true, requests, groupsSpecified: groups.length > 0 };
}
