// Which CA bundle a peer's verified chain ends at. The TLS server trusts the union of
// --client-ca-file and --requestheader-client-ca-file; each authenticator accepts only
// certificates from its own bundle, as kube's per-authenticator x509 verifiers do.
import { X509Certificate } from 'node:crypto';
import type { DetailedPeerCertificate } from 'node:tls';

export function parseCABundle(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((b) => new X509Certificate(b));
}

/** True when some certificate of the peer's chain is one of `cas` or was signed by one of them. */
export function chainsTo(peer: DetailedPeerCertificate, cas: readonly X509Certificate[]): boolean {
  const seen = new Set<DetailedPeerCertificate>();
  for (
    let c: DetailedPeerCertificate | undefined = peer;
    c !== undefined && !seen.has(c);
    // Node leaves it out where the chain it got ends below a root.
    c = c.issuerCertificate as DetailedPeerCertificate | undefined
  ) {
    seen.add(c);
    const cert = new X509Certificate(c.raw);
    if (cas.some((ca) => ca.raw.equals(cert.raw) || (ca.checkIssued(cert) && cert.verify(ca.publicKey))))
      return true;
  }
  return false;
}
