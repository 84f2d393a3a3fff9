// A CA that issues certificates (kube-controller-manager's --cluster-signing-cert-file and
// --cluster-signing-key-file, read as its csrsigning controller's caProvider reads them): exactly
// one certificate, a private key that matches it, and what issuing needs from the certificate: its
// subject byte for byte (the issuer of what it signs), its subject key identifier and its expiry.
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { children, contentOf, elementOf, oidText, readWhole, tags } from '../../machinery/der/der-reader.js';
import { pemBlocks } from '../../registry/certificates/certificatesigningrequest/pem.js';

export interface SigningCA {
  readonly certificate: X509Certificate;
  /** The CA's subject Name, DER. */
  readonly rawSubject: Buffer;
  /** The CA's subjectKeyIdentifier, when it has one (the authorityKeyIdentifier of what it signs). */
  readonly subjectKeyId: Buffer | undefined;
  readonly privateKey: KeyObject;
  /** Milliseconds since the epoch. */
  readonly notAfter: number;
}

const malformed = 'x509: malformed certificate';
const subjectKeyIdOid = '2.5.29.14';

/** The subject and subjectKeyIdentifier of a certificate's DER. */
function subjectAndKeyId(raw: Buffer): { rawSubject: Buffer; subjectKeyId: Buffer | undefined } {
  const [tbs] = children(raw, readWhole(raw, malformed), malformed);
  if (tbs === undefined) throw new Error(malformed);
  const fields = children(raw, tbs, malformed);
  // The version is an optional [0]; the subject follows serial, signature, issuer and validity.
  const rest = fields[0]?.tag === 0xa0 ? fields.slice(1) : fields;
  const subject = rest[4];
  if (subject?.tag !== tags.SEQUENCE) throw new Error(malformed);
  let subjectKeyId: Buffer | undefined;
  const extensions = rest.find((f) => f.tag === 0xa3);
  const [list] = extensions === undefined ? [] : children(raw, extensions, malformed);
  for (const ext of list === undefined ? [] : children(raw, list, malformed)) {
    const parts = children(raw, ext, malformed);
    const [id] = parts;
    const value = parts[parts.length - 1];
    if (id === undefined || value === undefined) continue;
    if (oidText(contentOf(raw, id)) !== subjectKeyIdOid) continue;
    const inner = contentOf(raw, value);
    subjectKeyId = Buffer.from(contentOf(inner, readWhole(inner, malformed)));
  }
  return { rawSubject: Buffer.from(elementOf(raw, subject)), subjectKeyId };
}

/** The CA of a certificate and key in PEM, or why it cannot sign (the files named by `source`). */
export function loadSigningCA(
  pem: { readonly cert: string; readonly key: string },
  source: { readonly certFile: string; readonly keyFile: string },
): SigningCA | { readonly error: string } {
  const certs = pemBlocks(pem.cert).filter((b) => b.type === 'CERTIFICATE');
  if (certs.length !== 1)
    return {
      error: `error reading CA cert file ${JSON.stringify(source.certFile)}: expected 1 certificate, found ${certs.length}`,
    };
  try {
    const certificate = new X509Certificate(pem.cert);
    let privateKey: KeyObject;
    try {
      privateKey = createPrivateKey(pem.key);
    } catch {
      return {
        error: `error reading CA key file ${JSON.stringify(source.keyFile)}: data does not contain a valid RSA or ECDSA private key`,
      };
    }
    if (!certificate.checkPrivateKey(privateKey))
      return { error: 'tls: private key does not match public key' };
    return {
      certificate,
      ...subjectAndKeyId(certificate.raw),
      privateKey,
      notAfter: Date.parse(certificate.validTo),
    };
  } catch (err) {
    return {
      error: `error reading CA cert file ${JSON.stringify(source.certFile)}: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
}
