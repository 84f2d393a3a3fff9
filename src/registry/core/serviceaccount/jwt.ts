// Compact JWS signing and verification for service account tokens (pkg/serviceaccount/jwt.go),
// on node:crypto: RS256 for RSA keys, ES256/ES384/ES512 for EC keys by curve.
import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

export const jwtAlgorithms = ['RS256', 'ES256', 'ES384', 'ES512'] as const;
export type JwtAlgorithm = (typeof jwtAlgorithms)[number];

/** A private key ready to sign, with its algorithm and key id. */
export interface TokenSigner {
  readonly alg: JwtAlgorithm;
  readonly kid: string;
  readonly key: KeyObject;
}

const curveAlgorithms: Readonly<Record<string, JwtAlgorithm>> = {
  prime256v1: 'ES256',
  secp384r1: 'ES384',
  secp521r1: 'ES512',
};

const hashOf: Record<JwtAlgorithm, string> = {
  RS256: 'sha256',
  ES256: 'sha256',
  ES384: 'sha384',
  ES512: 'sha512',
};

/** The algorithm a key signs with, or an error naming what is not supported. */
export function algorithmFor(key: KeyObject): JwtAlgorithm {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve ?? '';
    const alg = curveAlgorithms[curve];
    if (alg !== undefined) return alg;
    throw new Error(`unknown private key curve, must be 256, 384, or 521: ${curve}`);
  }
  throw new Error(
    `unknown private key type ${String(key.asymmetricKeyType)}, must be *rsa.PrivateKey or *ecdsa.PrivateKey`,
  );
}

/** keyIDFromPublicKey: base64url(sha256(PKIX DER of the public key)). */
export function keyIDFor(publicKey: KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64url');
}

export function newTokenSigner(privateKey: KeyObject): TokenSigner {
  return { alg: algorithmFor(privateKey), kid: keyIDFor(createPublicKey(privateKey)), key: privateKey };
}

const encodeSegment = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A signed compact JWT carrying `claims`. */
export function signJwt(signer: TokenSigner, claims: Readonly<Record<string, unknown>>): string {
  const input = `${encodeSegment({ alg: signer.alg, kid: signer.kid })}.${encodeSegment(claims)}`;
  const signature = sign(hashOf[signer.alg], Buffer.from(input), {
    key: signer.key,
    ...(signer.alg === 'RS256' ? {} : { dsaEncoding: 'ieee-p1363' as const }),
  });
  return `${input}.${signature.toString('base64url')}`;
}

export type JwtVerification =
  | { readonly ok: true; readonly claims: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly reason: string };

function decodeSegment(segment: string): unknown {
  if (!/^[A-Za-z0-9_-]*$/.test(segment)) throw new Error('illegal base64 data');
  return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The unverified header and claims of a compact JWS, or undefined when it is not one. */
export function parseJwt(
  token: string,
): { header: Record<string, unknown>; claims: Record<string, unknown> } | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const header = decodeSegment(parts[0] ?? '');
    const claims = decodeSegment(parts[1] ?? '');
    return isRecord(header) && isRecord(claims) ? { header, claims } : undefined;
  } catch {
    return undefined;
  }
}

function verifiesWith(key: KeyObject, alg: JwtAlgorithm, parts: readonly string[]): boolean {
  let keyAlg: JwtAlgorithm;
  try {
    keyAlg = algorithmFor(key);
  } catch {
    return false;
  }
  if (keyAlg !== alg) return false;
  const data = Buffer.from(`${parts[0] ?? ''}.${parts[1] ?? ''}`);
  const signature = Buffer.from(parts[2] ?? '', 'base64url');
  return verify(
    hashOf[alg],
    data,
    { key, ...(alg === 'RS256' ? {} : { dsaEncoding: 'ieee-p1363' as const }) },
    signature,
  );
}

/** Checks the signature against any of `keys` (public keys); claims are checked by the caller. */
export function verifyJwt(token: string, keys: readonly KeyObject[]): JwtVerification {
  const parsed = parseJwt(token);
  if (parsed === undefined) return { ok: false, reason: 'token is not a JWS' };
  const alg = parsed.header['alg'];
  if (typeof alg !== 'string' || !(jwtAlgorithms as readonly string[]).includes(alg))
    return { ok: false, reason: `unsupported signing algorithm ${JSON.stringify(alg)}` };
  const parts = token.split('.');
  for (const key of keys) {
    if (verifiesWith(key, alg as JwtAlgorithm, parts)) return { ok: true, claims: parsed.claims };
  }
  return { ok: false, reason: 'invalid signature' };
}
