// A PKCS#10 CertificationRequest check (certificates.ParseCSR and x509.CertificateRequest's
// CheckSignature, as pkg/apis/certificates/validation/validation.go's validateCSR runs them): the PEM
// block type, the DER structure, and the signature by the request's own public key. node:crypto has
// no CSR parser, so the DER is walked here.
import { Buffer } from 'node:buffer';
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { pemBlocks, wireBytes } from './pem.js';

interface Tlv {
  readonly tag: number;
  /** Offset of the first content byte. */
  readonly start: number;
  /** Offset just past the element. */
  readonly end: number;
  /** Offset of the tag byte. */
  readonly begin: number;
}

const malformed = 'x509: malformed certificate request';

class MalformedError extends Error {}

function readTlv(der: Buffer, at: number, limit: number): Tlv {
  if (at + 2 > limit) throw new MalformedError(malformed);
  const tag = der[at] ?? 0;
  let len = der[at + 1] ?? 0;
  let start = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || start + n > limit) throw new MalformedError(malformed);
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + (der[start + i] ?? 0);
    start += n;
  }
  const end = start + len;
  if (end > limit) throw new MalformedError(malformed);
  return { tag, start, end, begin: at };
}

/** The children of a constructed element. */
function children(der: Buffer, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let at = parent.start; at < parent.end;) {
    const child = readTlv(der, at, parent.end);
    out.push(child);
    at = child.end;
  }
  return out;
}

const SEQUENCE = 0x30;
const INTEGER = 0x02;
const OID = 0x06;
const BIT_STRING = 0x03;
const ATTRIBUTES = 0xa0;

function oidText(bytes: Buffer): string {
  const first = bytes[0] ?? 0;
  const parts = [Math.floor(first / 40), first % 40];
  let value = 0;
  for (const b of bytes.subarray(1)) {
    value = value * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

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
  if (top.tag !== SEQUENCE || top.end !== der.length) throw new MalformedError(malformed);
  const [info, algorithm, signature, ...rest] = children(der, top);
  if (
    info?.tag !== SEQUENCE ||
    algorithm?.tag !== SEQUENCE ||
    signature?.tag !== BIT_STRING ||
    rest.length > 0
  )
    throw new MalformedError(malformed);
  const [version, subject, spki, attributes] = children(der, info);
  if (version?.tag !== INTEGER || subject?.tag !== SEQUENCE || spki?.tag !== SEQUENCE)
    throw new MalformedError(malformed);
  if (attributes !== undefined && attributes.tag !== ATTRIBUTES) throw new MalformedError(malformed);
  const [oid] = children(der, algorithm);
  if (oid?.tag !== OID) throw new MalformedError(malformed);
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey({ key: der.subarray(spki.begin, spki.end), format: 'der', type: 'spki' });
  } catch {
    throw new MalformedError('x509: unsupported public key type');
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
    if (err instanceof MalformedError) return err.message;
    // A key that does not fit the algorithm (an RSA key with an ECDSA signature, …).
    return 'x509: signature algorithm specifies an incompatible public key type';
  }
}

const organizationOid = '2.5.4.10';
const SET = 0x31;

/** A directory string's text: UTF8String, PrintableString, IA5String, T61String or BMPString. */
function directoryString(der: Buffer, value: Tlv): string {
  const bytes = der.subarray(value.start, value.end);
  if (value.tag === 0x1e) return Buffer.from(bytes).swap16().toString('utf16le');
  return bytes.toString(value.tag === 0x0c ? 'utf8' : 'latin1');
}

/** The subject's organizations (O=) in order, as Go's pkix.Name.Organization lists them. */
function organizations(subject: Buffer): string[] {
  const top = readTlv(subject, 0, subject.length);
  const out: string[] = [];
  for (const rdn of children(subject, top)) {
    if (rdn.tag !== SET) throw new MalformedError(malformed);
    for (const atv of children(subject, rdn)) {
      const [oid, value] = children(subject, atv);
      if (oid?.tag !== OID || value === undefined) throw new MalformedError(malformed);
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
