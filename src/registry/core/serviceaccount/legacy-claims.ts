// The claims of a legacy service account token (pkg/serviceaccount/legacy.go): the token the
// tokens controller writes into a Secret of type kubernetes.io/service-account-token. It never
// expires and has no audience; it is good while its Secret holds it and its account exists.

/** The issuer of legacy tokens, accepted beside --service-account-issuer. */
export const legacyIssuer = 'kubernetes/serviceaccount';

const prefix = 'kubernetes.io/serviceaccount/';

export interface LegacySubject {
  readonly namespace: string;
  readonly secretName: string;
  readonly serviceAccountName: string;
  readonly serviceAccountUID: string;
}

/** The claims, in the order go-jose writes them. */
export function legacyClaims(s: LegacySubject): Record<string, unknown> {
  return {
    iss: legacyIssuer,
    [`${prefix}namespace`]: s.namespace,
    [`${prefix}secret.name`]: s.secretName,
    [`${prefix}service-account.name`]: s.serviceAccountName,
    [`${prefix}service-account.uid`]: s.serviceAccountUID,
    sub: `system:serviceaccount:${s.namespace}:${s.serviceAccountName}`,
  };
}

/** The subject of verified legacy claims, or kube's text for what is missing. */
export function parseLegacyClaims(claims: Readonly<Record<string, unknown>>): LegacySubject | string {
  const text = (k: string): string =>
    typeof claims[`${prefix}${k}`] === 'string' ? String(claims[`${prefix}${k}`]) : '';
  const s = {
    namespace: text('namespace'),
    secretName: text('secret.name'),
    serviceAccountName: text('service-account.name'),
    serviceAccountUID: text('service-account.uid'),
  };
  if (s.namespace === '') return 'namespace claim is missing';
  if (s.secretName === '') return 'secretName claim is missing';
  if (s.serviceAccountName === '') return 'serviceAccountName claim is missing';
  if (s.serviceAccountUID === '') return 'serviceAccountUID claim is missing';
  const sub = claims['sub'];
  if (sub !== `system:serviceaccount:${s.namespace}:${s.serviceAccountName}`) return 'sub claim is invalid';
  return s;
}
