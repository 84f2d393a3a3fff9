// PKCS#10 requests for tests, with the key that signed them: any subject, subjectAltNames in an
// extensionRequest attribute, an ECDSA P-256 (default) or RSA key.
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import * as der from '../../../../server/tls/der.js';
import { ipBytes } from '../../../../server/tls/ip-bytes.js';
import { pemOf } from '../../../../server/tls/x509-certificate.js';
import { encodeName, type NameFields } from '../../../../server/tls/x509-name.js';

export interface NewCSROptions {
  readonly subject: NameFields;
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
  readonly emailAddresses?: readonly string[];
  readonly uris?: readonly string[];
  readonly keyType?: 'ec' | 'rsa';
}

export interface NewCSR {
  /** Base64 of the PEM request, as spec.request holds it. */
  readonly request: string;
  readonly pem: string;
  /** The private key, PKCS#8 PEM. */
  readonly keyPem: string;
  readonly privateKey: KeyObject;
}

function extensionRequest(o: NewCSROptions): der.Der[] {
  const ia5 = (s: string): Buffer => Buffer.from(s, 'latin1');
  const names = [
    ...(o.dnsNames ?? []).map((n) => der.implicit(2, ia5(n))),
    ...(o.emailAddresses ?? []).map((e) => der.implicit(1, ia5(e))),
    ...(o.ipAddresses ?? []).map((ip) => der.implicit(7, ipBytes(ip))),
    ...(o.uris ?? []).map((u) => der.implicit(6, ia5(u))),
  ];
  if (names.length === 0) return [];
  const san = der.sequence(der.oid('2.5.29.17'), der.octetString(der.sequence(...names)));
  return [der.sequence(der.oid('1.2.840.113549.1.9.14'), der.set(der.sequence(san)))];
}

export function newCSR(o: NewCSROptions): NewCSR {
  const { publicKey, privateKey } =
    o.keyType === 'rsa'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const info = der.sequence(
    der.smallInteger(0),
    encodeName(o.subject),
    publicKey.export({ type: 'spki', format: 'der' }),
    der.explicit(0, Buffer.concat(extensionRequest(o))),
  );
  const rsa = o.keyType === 'rsa';
  const algorithm = rsa
    ? der.sequence(der.oid('1.2.840.113549.1.1.11'), der.tlv(0x05))
    : der.sequence(der.oid('1.2.840.10045.4.3.2'));
  const signature = sign('sha256', info, privateKey);
  const pem = pemOf('CERTIFICATE REQUEST', der.sequence(info, algorithm, der.bitString(signature)));
  return {
    request: Buffer.from(pem).toString('base64'),
    pem,
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    privateKey,
  };
}
