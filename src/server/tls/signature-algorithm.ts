// The signature algorithm a CA's key signs with, as Go's x509.CreateCertificate picks it when the
// template names none (signingParamsForKey): SHA-256 with RSA, ECDSA with the hash that fits the
// curve, pure Ed25519.
import type { KeyObject } from 'node:crypto';
import * as der from './der.js';

export interface SignatureAlgorithm {
  /** The AlgorithmIdentifier, as written in the certificate twice. */
  readonly identifier: der.Der;
  /** node:crypto's digest for sign(); null for Ed25519. */
  readonly digest: string | null;
}

const ecdsaByCurve: Readonly<Record<string, readonly [string, string]>> = {
  prime256v1: ['1.2.840.10045.4.3.2', 'sha256'],
  secp384r1: ['1.2.840.10045.4.3.3', 'sha384'],
  secp521r1: ['1.2.840.10045.4.3.4', 'sha512'],
};

const derNull = der.tlv(0x05);

/** The algorithm for `key`, or an error naming what cannot sign. */
export function signatureAlgorithmFor(key: KeyObject): SignatureAlgorithm | { readonly error: string } {
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return { identifier: der.sequence(der.oid('1.2.840.113549.1.1.11'), derNull), digest: 'sha256' };
    case 'ec': {
      const curve = key.asymmetricKeyDetails?.namedCurve ?? '';
      const found = ecdsaByCurve[curve];
      if (found === undefined) return { error: `x509: unknown elliptic curve ${curve}` };
      return { identifier: der.sequence(der.oid(found[0])), digest: found[1] };
    }
    case 'ed25519':
      return { identifier: der.sequence(der.oid('1.3.101.112')), digest: null };
    case 'dsa':
    case 'ed448':
    case 'rsa-pss':
    case 'x25519':
    case 'x448':
    case undefined:
      break;
  }
  return { error: 'x509: only RSA, ECDSA and Ed25519 keys supported' };
}
