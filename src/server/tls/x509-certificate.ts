// The frame of an X.509 v3 certificate (RFC 5280 4.1): TBSCertificate laid out from its parts,
// signed with the issuer's key in the algorithm that key signs with, and written as PEM. What goes
// into the names and extensions is the callers' (certificate.ts for Capstan's own, issue-certificate.ts
// for what a CA issues for a request).
import { randomBytes, sign, type KeyObject } from 'node:crypto';
import * as der from './der.js';
import { signatureAlgorithmFor } from './signature-algorithm.js';

export interface CertificateParts {
  /** The issuer's Name, DER (a CA's own subject, byte for byte). */
  readonly issuer: der.Der;
  readonly subject: der.Der;
  readonly publicKey: KeyObject;
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** Each an Extension, in the order written; none leaves the [3] field out. */
  readonly extensions: readonly der.Der[];
}

export type SignedCertificate = { readonly pem: string; readonly der: Buffer } | { readonly error: string };

/** One Extension: its OID, critical when it is, and its value's DER wrapped in an OCTET STRING. */
export function extension(id: string, critical: boolean, value: der.Der): der.Der {
  return der.sequence(der.oid(id), ...(critical ? [der.boolean(true)] : []), der.octetString(value));
}

/** DER as PEM of `type`, in 64-character lines. */
export function pemOf(type: string, bytes: Buffer): string {
  const lines = bytes.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${type}-----\n${lines.join('\n')}\n-----END ${type}-----\n`;
}

/** A positive serial number of up to 128 bits (Go draws below 2^128 too). */
function serialNumber(): Buffer {
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f;
  return serial;
}

/** The key's SubjectPublicKeyInfo, DER. */
export const spkiOf = (key: KeyObject): Buffer => key.export({ type: 'spki', format: 'der' });

/** The certificate, signed by `signer` (the issuer's private key). */
export function signCertificate(parts: CertificateParts, signer: KeyObject): SignedCertificate {
  const algorithm = signatureAlgorithmFor(signer);
  if ('error' in algorithm) return algorithm;
  const tbs = der.sequence(
    der.explicit(0, der.smallInteger(2)),
    der.unsignedInteger(serialNumber()),
    algorithm.identifier,
    parts.issuer,
    der.sequence(der.time(parts.notBefore), der.time(parts.notAfter)),
    parts.subject,
    spkiOf(parts.publicKey),
    ...(parts.extensions.length === 0 ? [] : [der.explicit(3, der.sequence(...parts.extensions))]),
  );
  const signature = sign(algorithm.digest, tbs, signer);
  const cert = der.sequence(tbs, algorithm.identifier, der.bitString(signature));
  return { pem: pemOf('CERTIFICATE', cert), der: cert };
}
