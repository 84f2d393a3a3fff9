// Signing one approved request (pkg/controller/certificates/signer/signer.go's sign and duration,
// authority.go and policies.go's PermissiveSigningPolicy): the requested lifetime between 10
// minutes and the cluster signing duration, notBefore backdated 5 minutes for clocks behind ours,
// notAfter backdated too unless the certificate is short-lived (under 8 hours), both cut at the
// CA's own expiry; the subject, names and key as requested, the usages as spec.usages asks.
import { issueCertificate } from '../../../server/tls/issue-certificate.js';
import type { CertificateRequest } from '../../../server/tls/certificate-request.js';
import type { SigningCA } from '../../../server/tls/signing-ca.js';
import { x509Usages } from './key-usages.js';

const minute = 60_000;
const backdateMs = 5 * minute;
const shortMs = 8 * 60 * minute;
const minimumMs = 10 * minute;

export interface SignOptions {
  readonly ca: SigningCA;
  /** --cluster-signing-duration: the longest lifetime given. */
  readonly certTTLMs: number;
  /** The server's clock, now. */
  readonly now: number;
}

/** The lifetime given for spec.expirationSeconds (signer.duration). */
export function certificateLifetimeMs(expirationSeconds: number | undefined, certTTLMs: number): number {
  if (expirationSeconds === undefined) return certTTLMs;
  const requested = expirationSeconds * 1000;
  if (requested > certTTLMs) return certTTLMs;
  return requested < minimumMs ? minimumMs : requested;
}

/** Go's time.Time %v in UTC: 2006-01-02 15:04:05 +0000 UTC. */
const goTime = (ms: number): string =>
  `${new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, '')} +0000 UTC`;

/** The validity window, or why the CA cannot sign now. */
export function validity(
  ttlMs: number,
  o: SignOptions,
): { notBefore: number; notAfter: number } | { error: string } {
  const { now } = o;
  const notBefore = now - backdateMs;
  let notAfter = ttlMs < shortMs ? now + ttlMs : now + ttlMs - backdateMs;
  if (notAfter >= o.ca.notAfter) notAfter = o.ca.notAfter;
  if (notBefore >= o.ca.notAfter)
    return { error: `the signer has expired: NotAfter=${goTime(o.ca.notAfter)}` };
  if (now >= o.ca.notAfter)
    return {
      error: `refusing to sign a certificate that expired in the past: NotAfter=${goTime(o.ca.notAfter)}`,
    };
  return { notBefore, notAfter };
}

/** The issued certificate's PEM, or the error kube's signer returns (the request is tried again). */
export function signRequest(
  req: CertificateRequest,
  spec: { readonly usages: readonly string[]; readonly expirationSeconds: number | undefined },
  o: SignOptions,
): { readonly pem: string } | { readonly error: string } {
  const usages = x509Usages(spec.usages);
  if ('error' in usages) return usages;
  const window = validity(certificateLifetimeMs(spec.expirationSeconds, o.certTTLMs), o);
  if ('error' in window) return window;
  const signed = issueCertificate(
    {
      subject: req.subject,
      publicKey: req.publicKey,
      notBefore: new Date(window.notBefore),
      notAfter: new Date(window.notAfter),
      ...usages,
      dnsNames: req.dnsNames,
      emailAddresses: req.emailAddresses,
      ipAddresses: req.ipAddresses,
      uris: req.uris,
    },
    o.ca,
  );
  if ('error' in signed) return { error: `failed to sign certificate: ${signed.error}` };
  return { pem: signed.pem };
}
