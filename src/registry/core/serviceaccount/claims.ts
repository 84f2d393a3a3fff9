// The claims of a service account token (pkg/serviceaccount/claims.go) and the user a verified
// token stands for (k8s.io/apiserver/pkg/authentication/serviceaccount).
import { randomUUID } from 'node:crypto';
import type { UserInfo } from '../../rest/context.js';

export const serviceAccountUsernamePrefix = 'system:serviceaccount:';
export const allServiceAccountsGroup = 'system:serviceaccounts';

/** MakeUsername. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `${serviceAccountUsernamePrefix}${namespace}:${name}`;
}

/** MakeGroupNames. */
export function serviceAccountGroups(namespace: string): string[] {
  return [allServiceAccountsGroup, `${allServiceAccountsGroup}:${namespace}`];
}

export interface ObjectRef {
  readonly name: string;
  readonly uid: string;
}

/** What a token is issued for. */
export interface TokenSubject {
  readonly namespace: string;
  readonly serviceAccount: ObjectRef;
  readonly pod?: ObjectRef;
  readonly secret?: ObjectRef;
}

export interface ClaimsInput {
  readonly subject: TokenSubject;
  readonly issuer: string;
  readonly audiences: readonly string[];
  readonly expirationSeconds: number;
  /** Seconds since the epoch. */
  readonly now: number;
}

/** The JWT claims, keys in the order go-jose writes them. */
export function serviceAccountClaims(input: ClaimsInput): Record<string, unknown> {
  const { subject, now } = input;
  const kube: Record<string, unknown> = { namespace: subject.namespace };
  if (subject.pod !== undefined) kube['pod'] = { ...subject.pod };
  if (subject.secret !== undefined) kube['secret'] = { ...subject.secret };
  kube['serviceaccount'] = { ...subject.serviceAccount };
  return {
    aud: [...input.audiences],
    exp: now + input.expirationSeconds,
    iat: now,
    iss: input.issuer,
    jti: randomUUID(),
    'kubernetes.io': kube,
    nbf: now,
    sub: serviceAccountUsername(subject.namespace, subject.serviceAccount.name),
  };
}

/** The claims a verified token must carry, read back; an error text when they are malformed. */
export interface ParsedClaims {
  readonly issuer: string;
  readonly audiences: readonly string[];
  readonly expiry: number;
  readonly notBefore: number | undefined;
  readonly issuedAt: number | undefined;
  readonly id: string;
  readonly subject: TokenSubject;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function refOf(v: unknown): ObjectRef | undefined {
  return isRecord(v) ? { name: text(v['name']), uid: text(v['uid']) } : undefined;
}

function audiencesOf(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  return Array.isArray(v) ? v.filter((a): a is string => typeof a === 'string') : [];
}

export function parseServiceAccountClaims(claims: Readonly<Record<string, unknown>>): ParsedClaims | string {
  const kube = claims['kubernetes.io'];
  if (!isRecord(kube)) return 'service account token claims did not contain the kubernetes.io claim';
  const namespace = text(kube['namespace']);
  const serviceAccount = refOf(kube['serviceaccount']);
  if (namespace === '') return 'namespace claim is missing';
  if (serviceAccount === undefined || serviceAccount.name === '')
    return 'service account name claim is missing';
  if (serviceAccount.uid === '') return 'service account uid claim is missing';
  const expiry = num(claims['exp']);
  if (expiry === undefined) return 'service account token has no expiry';
  const pod = refOf(kube['pod']);
  const secret = refOf(kube['secret']);
  return {
    issuer: text(claims['iss']),
    audiences: audiencesOf(claims['aud']),
    expiry,
    notBefore: num(claims['nbf']),
    issuedAt: num(claims['iat']),
    id: text(claims['jti']),
    subject: {
      namespace,
      serviceAccount,
      ...(pod === undefined ? {} : { pod }),
      ...(secret === undefined ? {} : { secret }),
    },
  };
}

/** The user a service account token authenticates as (UserInfo with kube's extra keys). */
export function serviceAccountUser(claims: ParsedClaims): UserInfo {
  const { subject } = claims;
  const extra: Record<string, string[]> = {};
  if (subject.pod !== undefined) {
    extra['authentication.kubernetes.io/pod-name'] = [subject.pod.name];
    extra['authentication.kubernetes.io/pod-uid'] = [subject.pod.uid];
  }
  if (claims.id !== '') extra['authentication.kubernetes.io/credential-id'] = [`JTI=${claims.id}`];
  return {
    name: serviceAccountUsername(subject.namespace, subject.serviceAccount.name),
    uid: subject.serviceAccount.uid,
    groups: serviceAccountGroups(subject.namespace),
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
  };
}
