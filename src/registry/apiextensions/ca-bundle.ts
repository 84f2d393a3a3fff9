// Whether a conversion webhook's caBundle loads as root certificates, as kube's
// webhook.ValidateCABundle asks client-go's TLSConfigFor: an empty bundle is no bundle (the system
// roots), a non-empty one must hold at least one PEM CERTIFICATE block, without headers, that parses
// (x509.CertPool.AppendCertsFromPEM); other blocks and bad certificates are skipped. When none
// loads, client-go's createErrorParsingCAData says why.
import { X509Certificate } from 'node:crypto';

const block = /-----BEGIN ([^-\r\n]+)-----\r?\n([\s\S]*?)-----END \1-----[ \t]*(?:\r?\n|$)/g;

function parses(der: Buffer): boolean {
  try {
    new X509Certificate(der);
    return true;
  } catch {
    return false;
  }
}

/**
 * Why `caBundle` (base64 of the PEM bytes, as the API carries it) loads no root certificate, in
 * client-go's words; undefined when it loads one or is empty.
 */
export function caBundleError(caBundle: string): string | undefined {
  if (caBundle === '') return undefined;
  const pem = Buffer.from(caBundle, 'base64').toString('latin1');
  let firstError: string | undefined;
  let end = 0;
  let blocks = 0;
  for (const m of pem.matchAll(block)) {
    blocks++;
    end = m.index + m[0].length;
    // A block with headers (`Proc-Type: ...`) is not a plain certificate to Go.
    const body = m[2] ?? '';
    if (m[1] !== 'CERTIFICATE' || body.includes(':')) continue;
    if (parses(Buffer.from(body.replace(/\s+/g, ''), 'base64'))) return undefined;
    firstError ??= 'failed to parse certificate: x509: malformed certificate';
  }
  if (firstError !== undefined) return firstError;
  // pem.Decode finds no block in what is left (all of it, or what follows the last block).
  if (blocks === 0 || end < pem.length) return 'unable to parse bytes as PEM block';
  return 'no valid certificate authority data seen';
}

export function caBundleLoads(caBundle: string): boolean {
  return caBundleError(caBundle) === undefined;
}
