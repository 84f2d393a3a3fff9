// Capstan's own certificates (its CA, serving and admin certificates): X.509 v3 (RFC 5280), signed
// in the algorithm the issuer's key signs with (ECDSA P-256 / SHA-256 for the keys Capstan makes).
import { createHash, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import * as der from './der.js';
import { ipBytes } from './ip-bytes.js';
import { extension, signCertificate, spkiOf } from './x509-certificate.js';

export interface DistinguishedName {
  readonly commonName: string;
  /** One O attribute each (a client certificate's groups). */
  readonly organization?: string | readonly string[];
}

export interface CertificateTemplate {
  readonly subject: DistinguishedName;
  readonly publicKey: KeyObject;
  readonly notBefore: Date;
  readonly notAfter: Date;
  readonly isCA: boolean;
  /** DNS names and IP addresses for the subjectAltName extension. */
  readonly altNames?: readonly string[];
  /** The extended key usage of a leaf: serverAuth (the default) or clientAuth. */
  readonly usage?: 'server' | 'client';
}

export interface Issuer {
  readonly name: DistinguishedName;
  readonly publicKey: KeyObject;
  readonly privateKey: KeyObject;
}

const oids = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
} as const;

// keyUsage bit numbers.
const digitalSignature = 0;
const keyCertSign = 5;
const cRLSign = 6;

function name(dn: DistinguishedName): der.Der {
  const rdn = (type: string, value: string): der.Der =>
    der.set(der.sequence(der.oid(type), der.utf8String(value)));
  const orgs = dn.organization === undefined ? [] : [dn.organization].flat();
  const parts = orgs.map((o) => rdn(oids.organization, o));
  return der.sequence(...parts, rdn(oids.commonName, dn.commonName));
}

const keyId = (key: KeyObject): Buffer => createHash('sha1').update(spkiOf(key)).digest();

function altNames(names: readonly string[]): der.Der {
  return der.sequence(
    ...names.map((n) =>
      isIP(n) === 0 ? der.implicit(2, Buffer.from(n, 'ascii')) : der.implicit(7, ipBytes(n)),
    ),
  );
}

function extensions(t: CertificateTemplate, issuer: Issuer): der.Der[] {
  const list = [
    extension(
      oids.keyUsage,
      true,
      der.namedBits(t.isCA ? [digitalSignature, keyCertSign, cRLSign] : [digitalSignature]),
    ),
    extension(oids.basicConstraints, true, t.isCA ? der.sequence(der.boolean(true)) : der.sequence()),
    extension(oids.subjectKeyIdentifier, false, der.octetString(keyId(t.publicKey))),
    extension(oids.authorityKeyIdentifier, false, der.sequence(der.implicit(0, keyId(issuer.publicKey)))),
  ];
  if (!t.isCA) {
    const usage = t.usage === 'client' ? oids.clientAuth : oids.serverAuth;
    list.push(extension(oids.extKeyUsage, false, der.sequence(der.oid(usage))));
  }
  if (t.altNames !== undefined && t.altNames.length > 0)
    list.push(extension(oids.subjectAltName, false, altNames(t.altNames)));
  return list;
}

/** The certificate in PEM, signed by `issuer` (the template's own key pair for a self-signed CA). */
export function createCertificate(t: CertificateTemplate, issuer: Issuer): string {
  const signed = signCertificate(
    {
      issuer: name(issuer.name),
      subject: name(t.subject),
      publicKey: t.publicKey,
      notBefore: t.notBefore,
      notAfter: t.notAfter,
      extensions: extensions(t, issuer),
    },
    issuer.privateKey,
  );
  if ('error' in signed) throw new Error(signed.error);
  return signed.pem;
}
