// What a PKCS#10 certification request (RFC 2986) asks for, as Go's x509.ParseCertificateRequest
// reads it: the subject's attributes, the public key, and the subjectAltName extension of its
// extensionRequest attribute (DNS names, email addresses, IP addresses, URIs). The request's
// signature is checked elsewhere (certificatesigningrequest/request.ts, at create).
import { createPublicKey, type KeyObject } from 'node:crypto';
import {
  children,
  contentOf,
  DerError,
  elementOf,
  oidText,
  readWhole,
  tags,
  type Tlv,
} from '../../machinery/der/der-reader.js';
import { parseName, type NameFields } from './x509-name.js';

export interface CertificateRequest {
  readonly subject: NameFields;
  readonly publicKey: KeyObject;
  readonly dnsNames: readonly string[];
  readonly emailAddresses: readonly string[];
  /** Each address's bytes: 4 for IPv4, 16 for IPv6. */
  readonly ipAddresses: readonly Buffer[];
  readonly uris: readonly string[];
}

const malformed = 'x509: malformed certificate request';
const extensionRequestOid = '1.2.840.113549.1.9.14';
const subjectAltNameOid = '2.5.29.17';

interface AltNames {
  dnsNames: string[];
  emailAddresses: string[];
  ipAddresses: Buffer[];
  uris: string[];
}

/** The GeneralNames of a subjectAltName value; names of other kinds are skipped, as Go skips them. */
function parseAltNames(value: Buffer, into: AltNames): void {
  for (const name of children(value, readWhole(value, malformed), malformed)) {
    const bytes = contentOf(value, name);
    switch (name.tag) {
      case 0x81:
        into.emailAddresses.push(bytes.toString('latin1'));
        break;
      case 0x82:
        into.dnsNames.push(bytes.toString('latin1'));
        break;
      case 0x86:
        into.uris.push(bytes.toString('latin1'));
        break;
      case 0x87:
        if (bytes.length !== 4 && bytes.length !== 16)
          throw new DerError(`x509: cannot parse IP address of length ${bytes.length}`);
        into.ipAddresses.push(Buffer.from(bytes));
        break;
      default:
    }
  }
}

/** The extensions of an extensionRequest attribute, the subjectAltName ones read into `into`. */
function readExtensionRequest(der: Buffer, values: Tlv, into: AltNames): void {
  for (const extensions of children(der, values, malformed)) {
    if (extensions.tag !== tags.SEQUENCE) throw new DerError(malformed);
    for (const ext of children(der, extensions, malformed)) {
      const parts = children(der, ext, malformed);
      const [id] = parts;
      const value = parts[parts.length - 1];
      if (id?.tag !== tags.OID || value?.tag !== tags.OCTET_STRING) throw new DerError(malformed);
      if (oidText(contentOf(der, id)) === subjectAltNameOid) parseAltNames(contentOf(der, value), into);
    }
  }
}

/** The request's content from its DER; throws DerError with Go's text when it does not parse. */
export function parseCertificateRequest(der: Buffer): CertificateRequest {
  const [info] = children(der, readWhole(der, malformed), malformed);
  if (info?.tag !== tags.SEQUENCE) throw new DerError(malformed);
  const [version, subject, spki, attributes] = children(der, info, malformed);
  if (version?.tag !== tags.INTEGER || subject?.tag !== tags.SEQUENCE || spki?.tag !== tags.SEQUENCE)
    throw new DerError(malformed);
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey({ key: elementOf(der, spki), format: 'der', type: 'spki' });
  } catch {
    throw new DerError('x509: unsupported public key type');
  }
  const alt: AltNames = { dnsNames: [], emailAddresses: [], ipAddresses: [], uris: [] };
  if (attributes !== undefined) {
    if (attributes.tag !== 0xa0) throw new DerError(malformed);
    for (const attribute of children(der, attributes, malformed)) {
      const [type, values] = children(der, attribute, malformed);
      if (type?.tag !== tags.OID || values?.tag !== tags.SET) throw new DerError(malformed);
      if (oidText(contentOf(der, type)) === extensionRequestOid) readExtensionRequest(der, values, alt);
    }
  }
  return { subject: parseName(elementOf(der, subject), malformed), publicKey, ...alt };
}
