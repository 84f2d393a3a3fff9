// A leaf certificate a CA issues for a request, laid out as Go's x509.CreateCertificate lays out
// kube's signer's template: keyUsage (critical), extKeyUsage, basicConstraints (critical, not a
// CA), the authorityKeyIdentifier of a CA that has a subjectKeyIdentifier, and the subjectAltName
// (critical when the subject is empty), in that order; no subjectKeyIdentifier for a leaf.
import type { KeyObject } from 'node:crypto';
import * as der from './der.js';
import type { SigningCA } from './signing-ca.js';
import { extension, signCertificate, type SignedCertificate } from './x509-certificate.js';
import { encodeName, type NameFields } from './x509-name.js';

export interface LeafTemplate {
  readonly subject: NameFields;
  readonly publicKey: KeyObject;
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** keyUsage bit numbers (digitalSignature 0 … decipherOnly 8); none leaves the extension out. */
  readonly keyUsageBits: readonly number[];
  /** extKeyUsage OIDs in the order written; none leaves the extension out. */
  readonly extKeyUsages: readonly string[];
  readonly dnsNames: readonly string[];
  readonly emailAddresses: readonly string[];
  readonly ipAddresses: readonly Buffer[];
  readonly uris: readonly string[];
}

const oids = {
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  subjectAltName: '2.5.29.17',
} as const;

/** An IPv4-mapped IPv6 address is written as its 4 IPv4 bytes (Go's To4). */
function ipForm(ip: Buffer): Buffer {
  const mapped =
    ip.length === 16 && ip.subarray(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff;
  return mapped ? ip.subarray(12) : ip;
}

/** GeneralNames in Go's marshalSANs order: DNS names, emails, IP addresses, URIs. */
function altNames(t: LeafTemplate): der.Der {
  const ia5 = (s: string): Buffer => Buffer.from(s, 'latin1');
  return der.sequence(
    ...t.dnsNames.map((n) => der.implicit(2, ia5(n))),
    ...t.emailAddresses.map((e) => der.implicit(1, ia5(e))),
    ...t.ipAddresses.map((ip) => der.implicit(7, ipForm(ip))),
    ...t.uris.map((u) => der.implicit(6, ia5(u))),
  );
}

function extensions(t: LeafTemplate, ca: SigningCA, subject: der.Der): der.Der[] {
  const list: der.Der[] = [];
  if (t.keyUsageBits.length > 0) list.push(extension(oids.keyUsage, true, der.namedBits(t.keyUsageBits)));
  if (t.extKeyUsages.length > 0)
    list.push(extension(oids.extKeyUsage, false, der.sequence(...t.extKeyUsages.map((o) => der.oid(o)))));
  list.push(extension(oids.basicConstraints, true, der.sequence()));
  if (ca.subjectKeyId !== undefined)
    list.push(extension(oids.authorityKeyIdentifier, false, der.sequence(der.implicit(0, ca.subjectKeyId))));
  const sans = t.dnsNames.length + t.emailAddresses.length + t.ipAddresses.length + t.uris.length;
  // An empty subject is the two bytes of an empty SEQUENCE; then the names are the identity.
  if (sans > 0) list.push(extension(oids.subjectAltName, subject.length === 2, altNames(t)));
  return list;
}

/** The certificate `ca` issues for `t`, PEM and DER, or why its key cannot sign. */
export function issueCertificate(t: LeafTemplate, ca: SigningCA): SignedCertificate {
  const subject = encodeName(t.subject);
  return signCertificate(
    {
      issuer: ca.rawSubject,
      subject,
      publicKey: t.publicKey,
      notBefore: t.notBefore,
      notAfter: t.notAfter,
      extensions: extensions(t, ca, subject),
    },
    ca.privateKey,
  );
}
