// A PKCS#10 CertificationRequest check (certificates.ParseCSR and x509.CertificateRequest's
// CheckSignature, as pkg/apis/certificates/validation/validation.go's validateCSR runs them): the PEM
// block type, the DER structure, and the signature by the request's own public key. node:crypto has
// no CSR parser, so the DER is walked here.
import { Buffer } from 'node:buffer';
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import {
  children,
  DerError,
  directoryString,
  oidText,
  readTlv as readTlvAt,
  tags,
  type Tlv,
} from '../../../machinery/der/der-reader.js';
import { pemBlocks, wireBytes } from './pem.js';

const malformed = 'x509: malformed certificate request';
const ATTRIBUTES = 0xa0;

const readTlv = (der: Buffer, at: number, limit: number): Tlv => readTlvAt(der, at, { limit, malformed });
const childrenOf = (der: Buffer, parent: Tlv): Tlv[] => children(der, parent, malformed);

type Verifier = { readonly digest: string | null; readonly failure: string };
const rsa = (digest: string): Verifier => ({ digest, failure: 'crypto/rsa: verification error' });
const ecdsa = (digest: string): Verifier => ({ digest, failure: 'x509: ECDSA verification failure' });

/** Signature algorithms by OID, with Go's verification failure texts. */
const verifiers: Readonly<Record<string, Verifier>> = {
  '1.2.840.113549.1.1.5': rsa('sha1'),
  '1.2.840.113549.1.1.11': rsa('sha256'),
  '1.2.840.113549.1.1.12': rsa('sha384'),
  '1.2.840.113549.1.1.13': rsa('sha512'),
  '1.2.840.10045.4.1': ecdsa('sha1'),
  '1.2.840.10045.4.3.2': ecdsa('sha256'),
  '1.2.840.10045.4.3.3': ecdsa('sha384'),
  '1.2.840.10045.4.3.4': ecdsa('sha512'),
  '1.3.101.112': { digest: null, failure: 'x509: Ed25519 verification failure' },
};

interface ParsedRequest {
  readonly info: Buffer;
  /** The subject's RDNSequence, tag and length included. */
  readonly subject: Buffer;
  readonly publicKey: KeyObject;
  readonly algorithm: string;
  readonly signature: Buffer;
}

function parseCertificationRequest(der: Buffer): ParsedRequest {
  const top = readTlv(der, 0, der.length);
  if (top.tag !== tags.SEQUENCE || top.end !== der.length) throw new DerError(malformed);
  const [info, algorithm, signature, ...rest] = childrenOf(der, top);
  if (
    info?.tag !== tags.SEQUENCE ||
    algorithm?.tag !== tags.SEQUENCE ||
    signature?.tag !== tags.BIT_STRING ||
    rest.length > 0
  )
    throw new DerError(malformed);
  const [version, subject, spki, attributes] = childrenOf(der, info);
  if (version?.tag !== tags.INTEGER || subject?.tag !== tags.SEQUENCE || spki?.tag !== tags.SEQUENCE)
    throw new DerError(malformed);
  if (attributes !== undefined && attributes.tag !== ATTRIBUTES) throw new DerError(malformed);
  const [oid] = childrenOf(der, algorithm);
  if (oid?.tag !== tags.OID) throw new DerError(malformed);
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey({ key: der.subarray(spki.begin, spki.end), format: 'der', type: 'spki' });
  } catch {
    throw new DerError('x509: unsupported public key type');
  }
  // The first content byte of a BIT STRING counts its unused bits; signatures use whole bytes.
  return {
    info: der.subarray(info.begin, info.end),
    subject: der.subarray(subject.begin, subject.end),
    publicKey,
    algorithm: oidText(der.subarray(oid.start, oid.end)),
    signature: der.subarray(signature.start + 1, signature.end),
  };
}

/**
 * Why the base64 `request` field is not a PEM-encoded, correctly self-signed PKCS#10 request, or
 * undefined when it is.
 */
export function checkCertificateRequest(request: string | undefined): string | undefined {
  const block = pemBlocks(wireBytes(request).toString('latin1'))[0];
  if (block?.type !== 'CERTIFICATE REQUEST') return 'PEM block type must be CERTIFICATE REQUEST';
  try {
    const csr = parseCertificationRequest(block.bytes);
    const verifier = verifiers[csr.algorithm];
    if (verifier === undefined) return 'x509: cannot verify signature: algorithm unimplemented';
    const ok = verify(verifier.digest, csr.info, csr.publicKey, csr.signature);
    return ok ? undefined : verifier.failure;
  } catch (err) {
    if (err instanceof DerError) return err.message;
    // A key that does not fit the algorithm (an RSA key with an ECDSA signature, …).
    return 'x509: signature algorithm specifies an incompatible public key type';
  }
}

const organizationOid = '2.5.4.10';

/** The subject's organizations (O=) in order, as Go's pkix.Name.Organization lists them. */
function organizations(subject: Buffer): string[] {
  const top = readTlv(subject, 0, subject.length);
  const out: string[] = [];
  for (const rdn of childrenOf(subject, top)) {
    if (rdn.tag !== tags.SET) throw new DerError(malformed);
    for (const atv of childrenOf(subject, rdn)) {
      const [oid, value] = childrenOf(subject, atv);
      if (oid?.tag !== tags.OID || value === undefined) throw new DerError(malformed);
      if (oidText(subject.subarray(oid.start, oid.end)) === organizationOid)
        out.push(directoryString(subject, value));
    }
  }
  return out;
}

/**
 * certificates.ParseCSR's subject organizations of the base64 `request` field, or why it does not
 * parse (the CertificateSubjectRestriction plugin reads them).
 */
export function certificateRequestOrganizations(request: string | undefined): string[] | { error: string } {
  const block = pemBlocks(wireBytes(request).toString('latin1'))[0];
  if (block?.type !== 'CERTIFICATE REQUEST') return { error: 'PEM block type must be CERTIFICATE REQUEST' };
  try {
    return organizations(parseCertificationRequest(block.bytes).subject);
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}
