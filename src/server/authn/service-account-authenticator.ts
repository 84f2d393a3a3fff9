// Service account token authentication (pkg/serviceaccount/jwt.go JWTTokenAuthenticator with the
// validator of claims.go): a JWT of one of our issuers, signed by one of our keys, unexpired, for
// one of the API audiences, whose service account (and bound pod or secret) still exists with the
// uid the token names. Legacy tokens (issuer kubernetes/serviceaccount, legacy.go's validator),
// which the tokens controller writes into Secrets, are good while their Secret holds them and
// their account exists.
import type { KubeObject } from '../../api/meta.js';
import {
  parseServiceAccountClaims,
  serviceAccountUser,
  type ObjectRef,
  type ParsedClaims,
} from '../../registry/core/serviceaccount/claims.js';
import { parseJwt, verifyJwt } from '../../registry/core/serviceaccount/jwt.js';
import {
  legacyIssuer,
  parseLegacyClaims,
  type LegacySubject,
} from '../../registry/core/serviceaccount/legacy-claims.js';
import type { Getter } from '../../registry/rest/capabilities.js';
import { internalContext } from '../../registry/rest/context.js';
import type { AuthenticationResult } from './token-auth.js';
import { intersectAudiences, type TokenAuthenticator } from './token-authenticator.js';
import type { ServiceAccountKeys } from './service-account-keys.js';

/** Where the objects a token names are looked up (the served storages). */
export interface ServiceAccountTokenGetters {
  readonly serviceAccounts: Getter;
  readonly pods?: Getter;
  readonly secrets?: Getter;
}

export interface ServiceAccountAuthenticatorOptions {
  readonly keys: ServiceAccountKeys;
  /** Without getters only signature, expiry and audience are checked. */
  readonly getters?: ServiceAccountTokenGetters;
  /** Seconds since the epoch; the clock for tests. */
  readonly now?: () => number;
}

// go-jose's DefaultLeeway.
const leewaySeconds = 60;
const invalid = (reason: string): AuthenticationResult => ({ kind: 'invalid', reason });

function timeError(claims: ParsedClaims, now: number): string | undefined {
  if (now - leewaySeconds > claims.expiry) return 'service account token has expired';
  if (claims.notBefore !== undefined && now + leewaySeconds < claims.notBefore)
    return 'service account token is not valid yet';
  if (claims.issuedAt !== undefined && now + leewaySeconds < claims.issuedAt)
    return 'service account token is issued in the future';
  return undefined;
}

/** Go's %q of a []string: `["a" "b"]`. */
const goQuoted = (list: readonly string[]): string => `[${list.map((a) => JSON.stringify(a)).join(' ')}]`;

type Lookup = { getter: Getter | undefined; what: string; ref: ObjectRef | undefined };

/** The object must exist with the claimed uid and not have been deleted more than a minute ago. */
async function lookupError(
  l: Lookup,
  ctx: ReturnType<typeof internalContext>,
  now: number,
): Promise<string | undefined> {
  if (l.ref === undefined || l.getter === undefined) return undefined;
  let obj: KubeObject;
  try {
    obj = await l.getter.get(ctx, l.ref.name, {});
  } catch (err) {
    return `${l.what} ${ctx.namespace}/${l.ref.name} cannot be found: ${err instanceof Error ? err.message : String(err)}`;
  }
  const uid = obj.metadata?.uid ?? '';
  if (uid !== l.ref.uid) return `${l.what} UID (${uid}) does not match claim (${l.ref.uid})`;
  const deleted = obj.metadata?.deletionTimestamp ?? '';
  if (deleted !== '' && Date.parse(deleted) / 1000 < now - leewaySeconds)
    return `${l.what} ${ctx.namespace}/${l.ref.name} has been deleted`;
  return undefined;
}

export function serviceAccountTokenAuthenticator(
  opts: ServiceAccountAuthenticatorOptions,
): TokenAuthenticator {
  const issuers = new Set(opts.keys.issuers);
  const implicit = opts.keys.apiAudiences;
  return async (token, signal, targetAudiences) => {
    const parsed = parseJwt(token);
    const legacy = parsed?.claims['iss'] === legacyIssuer;
    // Not a JWT of ours: another authenticator may know it.
    if (parsed === undefined || (!legacy && !issuers.has(String(parsed.claims['iss']))))
      return { kind: 'none' };
    const verified = verifyJwt(token, opts.keys.publicKeys);
    if (!verified.ok) return invalid(verified.reason);
    if (legacy) return legacyUser(token, verified.claims, { getters: opts.getters, signal });
    const claims = parseServiceAccountClaims(verified.claims);
    if (typeof claims === 'string') return invalid(claims);
    const now = opts.now?.() ?? Math.floor(Date.now() / 1000);
    const timeErr = timeError(claims, now);
    if (timeErr !== undefined) return invalid(timeErr);
    // A token without audiences (a legacy one) is for the API server's.
    const tokenAudiences = claims.audiences.length === 0 ? implicit : claims.audiences;
    const requested = targetAudiences ?? implicit;
    const audiences = intersectAudiences(tokenAudiences, requested);
    if (audiences.length === 0 && implicit.length > 0)
      return invalid(
        `token audiences ${goQuoted(tokenAudiences)} is invalid for the target audiences ${goQuoted(requested)}`,
      );
    const g = opts.getters;
    if (g !== undefined) {
      const ctx = internalContext({ namespace: claims.subject.namespace, signal });
      const lookups: Lookup[] = [
        { getter: g.serviceAccounts, what: 'service account', ref: claims.subject.serviceAccount },
        { getter: g.pods, what: 'pod', ref: claims.subject.pod },
        { getter: g.secrets, what: 'secret', ref: claims.subject.secret },
      ];
      for (const l of lookups) {
        const err = await lookupError(l, ctx, now);
        if (err !== undefined) return invalid(err);
      }
    }
    return { kind: 'user', user: serviceAccountUser(claims), audiences };
  };
}

/** A legacy token's user, once its Secret still holds it and its account exists (legacy.go). */
async function legacyUser(
  token: string,
  claims: Readonly<Record<string, unknown>>,
  o: { getters: ServiceAccountTokenGetters | undefined; signal: AbortSignal },
): Promise<AuthenticationResult> {
  const subject = parseLegacyClaims(claims);
  if (typeof subject === 'string') return invalid(subject);
  const g = o.getters;
  if (g !== undefined) {
    const err = await legacyLookupError(token, subject, { getters: g, signal: o.signal });
    if (err !== undefined) return invalid(err);
  }
  const { namespace, serviceAccountName, serviceAccountUID } = subject;
  return {
    kind: 'user',
    user: serviceAccountUser({
      issuer: legacyIssuer,
      audiences: [],
      expiry: Number.MAX_SAFE_INTEGER,
      notBefore: undefined,
      issuedAt: undefined,
      id: '',
      subject: { namespace, serviceAccount: { name: serviceAccountName, uid: serviceAccountUID } },
    }),
  };
}

async function legacyLookupError(
  token: string,
  s: LegacySubject,
  o: { getters: ServiceAccountTokenGetters; signal: AbortSignal },
): Promise<string | undefined> {
  const ctx = internalContext({ namespace: s.namespace, signal: o.signal });
  const found = async (getter: Getter | undefined, name: string): Promise<KubeObject | undefined> => {
    try {
      return await getter?.get(ctx, name, {});
    } catch {
      return undefined;
    }
  };
  const secret = (await found(o.getters.secrets, s.secretName)) as
    (KubeObject & { data?: Record<string, string> }) | undefined;
  if (secret === undefined || (secret.metadata?.deletionTimestamp ?? '') !== '')
    return 'token has been invalidated';
  if (Buffer.from(secret.data?.['token'] ?? '', 'base64').toString() !== token)
    return "token does not match server's copy";
  const account = await found(o.getters.serviceAccounts, s.serviceAccountName);
  if (account === undefined || (account.metadata?.deletionTimestamp ?? '') !== '')
    return 'token has been invalidated';
  const uid = account.metadata?.uid ?? '';
  if (uid !== s.serviceAccountUID)
    return `service account UID (${uid}) does not match claim (${s.serviceAccountUID})`;
  return undefined;
}
