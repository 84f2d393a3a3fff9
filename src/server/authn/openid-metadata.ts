// The service account issuer's OIDC discovery documents (pkg/serviceaccount/openidmetadata.go and
// pkg/routes/openidmetadata.go): /.well-known/openid-configuration names the issuer and where its
// keys are, /openid/v1/jwks lists the public keys that verify its tokens, so that a relying party
// outside the cluster can check a projected token. Served only for an https issuer, as kube.
import type { KeyObject } from 'node:crypto';
import { algorithmFor, keyIDFor } from '../../registry/core/serviceaccount/jwt.js';

export const openIDConfigPath = '/.well-known/openid-configuration';
export const jwksPath = '/openid/v1/jwks';
/** staticPublicKeysGetter.GetCacheAgeMaxSeconds: the max-age both documents are served with. */
export const openIDMetadataMaxAgeSeconds = 3600;

export interface OpenIDMetadataInput {
  /** The issuer tokens are minted with (the first --service-account-issuer). */
  readonly issuer: string;
  readonly publicKeys: readonly KeyObject[];
  /** --service-account-jwks-uri; absent: the keyset at this server's address. */
  readonly jwksURI?: string;
}

/** Why kube would not serve the documents for this issuer, or undefined when it would. */
export function openIDMetadataRefusal(issuer: string): string | undefined {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return `invalid issuer URL: ${issuer}`;
  }
  if (url.protocol !== 'https:') return `issuer URL must use https scheme, got: ${issuer}`;
  if (url.search !== '') return `issuer URL may not include a query, got: ${issuer}`;
  if (url.hash !== '') return `issuer URL may not include a fragment, got: ${issuer}`;
  return undefined;
}

/** A public key as go-jose writes a JSONWebKey: use, kty, kid, crv, alg, then the key's numbers. */
function jwk(key: KeyObject): Record<string, string> {
  const alg = algorithmFor(key);
  const numbers = key.export({ format: 'jwk' });
  const head = { use: 'sig', kty: numbers.kty ?? '', kid: keyIDFor(key) };
  if (numbers.kty === 'EC')
    return { ...head, crv: numbers.crv ?? '', alg, x: numbers.x ?? '', y: numbers.y ?? '' };
  return { ...head, alg, n: numbers.n ?? '', e: numbers.e ?? '' };
}

/** The keyset document: every verifying key. */
export function openIDKeysetJSON(publicKeys: readonly KeyObject[]): string {
  return JSON.stringify({ keys: publicKeys.map(jwk) });
}

/**
 * The discovery document. Without --service-account-jwks-uri kube points jwks_uri at the server's
 * external address (`host:port`).
 */
export function openIDConfigJSON(input: OpenIDMetadataInput, externalAddress: string): string {
  const algs = [...new Set(input.publicKeys.map(algorithmFor))].sort();
  return JSON.stringify({
    issuer: input.issuer,
    jwks_uri: input.jwksURI ?? `https://${externalAddress}${jwksPath}`,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: algs,
  });
}
