// Whether a conversion webhook's caBundle loads as root certificates, as kube's
// webhook.ValidateCABundle asks client-go's TLSConfigFor: an empty bundle is no bundle (the system
// roots), a non-empty one must hold at least one PEM CERTIFICATE block, without headers, that parses
// (x509.CertPool.AppendCertsFromPEM); other blocks and bad certificates are skipped.
import { X509Certificate } from 'node:crypto';

const block = /-----BEGIN ([^-\r\n]+)-----\r?\n([\s\S]*?)-----END \1-----/g;

function parses(der: Buffer): boolean {
  try {
    new X509Certificate(der);
    return true;
  } catch {
    return false;
  }
}

/** `caBundle` as the API carries it (base64 of the PEM bytes). */
export function caBundleLoads(caBundle: string): boolean {
  if (caBundle === '') return true;
  const pem = Buffer.from(caBundle, 'base64').toString('latin1');
  for (const m of pem.matchAll(block)) {
    if (m[1] !== 'CERTIFICATE') continue;
    const body = m[2] ?? '';
    // A block with headers (`Proc-Type: ...`) is not a plain certificate to Go.
    if (body.includes(':')) continue;
    if (parses(Buffer.from(body.replace(/\s+/g, ''), 'base64'))) return true;
  }
  return false;
}
