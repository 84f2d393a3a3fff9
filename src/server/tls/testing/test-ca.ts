// A certificate authority made in memory for tests: its PEM, and client certificates it signs
// (CN = the user, one O per group, extended key usage clientAuth).
import { generateKeyPairSync } from 'node:crypto';
import { createCertificate, type CertificateTemplate, type Issuer } from '../certificate.js';

export interface TestClientCertificate {
  readonly certPem: string;
  readonly keyPem: string;
}

export interface TestCA {
  readonly caPem: string;
  issueClient(user: string, groups?: readonly string[]): TestClientCertificate;
  /** A serving certificate for `altNames` (DNS names and IPs). */
  issueServer(altNames: readonly string[]): TestClientCertificate;
}

const hour = 3_600_000;

export function newTestCA(commonName: string): TestCA {
  const caKeys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const issuer: Issuer = { name: { commonName }, ...caKeys };
  const now = Date.now();
  const validity = { notBefore: new Date(now - hour), notAfter: new Date(now + 24 * hour) };
  const caPem = createCertificate(
    { subject: issuer.name, publicKey: caKeys.publicKey, isCA: true, ...validity },
    issuer,
  );
  const issue = (t: Pick<CertificateTemplate, 'subject' | 'usage' | 'altNames'>): TestClientCertificate => {
    const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const certPem = createCertificate({ ...t, publicKey: keys.publicKey, isCA: false, ...validity }, issuer);
    return { certPem, keyPem: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
  };
  return {
    caPem,
    issueClient(user, groups = []) {
      return issue({ subject: { commonName: user, organization: groups }, usage: 'client' });
    },
    issueServer(altNames) {
      return issue({ subject: { commonName: altNames[0] ?? 'localhost' }, usage: 'server', altNames });
    },
  };
}
