// The files controller-runtime's envtest writes before it starts kube-apiserver
// (pkg/internal/testing/controlplane: populateAPIServerCerts and CertAuthn), made the way its TinyCA
// makes them: RSA 2048 keys in PKCS#8, one CA for serving, one whose certificate and key sign service
// account tokens, and one for client certificates, of which an admin in system:masters gets one.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  createCertificate,
  type CertificateTemplate,
  type Issuer,
} from '../../../src/server/tls/certificate.js';

export interface EnvtestFiles {
  /** What envtest's rest.Config trusts: the CA that signed apiserver.crt. */
  readonly servingCAPem: string;
  /** envtest's provisioned user: envtest-admin in system:masters, as AddUser makes it. */
  readonly admin: { readonly certPem: string; readonly keyPem: string };
  /** The flags envtest adds for these files (beside its other defaults). */
  readonly args: readonly string[];
}

const week = 7 * 24 * 3_600_000;
const pkcs8 = (key: KeyObject): string => key.export({ type: 'pkcs8', format: 'pem' }).toString();

function tinyCA(): Issuer & { readonly pem: string } {
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const issuer: Issuer = { name: { commonName: 'envtest-environment', organization: 'envtest' }, ...keys };
  const now = Date.now();
  const pem = createCertificate(
    {
      subject: issuer.name,
      publicKey: keys.publicKey,
      isCA: true,
      notBefore: new Date(now),
      notAfter: new Date(now + week),
    },
    issuer,
  );
  return { ...issuer, pem };
}

function leaf(
  ca: Issuer,
  t: Pick<CertificateTemplate, 'subject' | 'usage' | 'altNames'>,
): { certPem: string; keyPem: string } {
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const now = Date.now();
  const certPem = createCertificate(
    {
      ...t,
      publicKey: keys.publicKey,
      isCA: false,
      notBefore: new Date(now),
      notAfter: new Date(now + week),
    },
    ca,
  );
  return { certPem, keyPem: pkcs8(keys.privateKey) };
}

/** Writes envtest's files into `certDir` (its --cert-dir) for a server on 127.0.0.1. */
export async function writeEnvtestFiles(certDir: string): Promise<EnvtestFiles> {
  const serving = tinyCA();
  const sa = tinyCA();
  const clients = tinyCA();
  const server = leaf(serving, {
    subject: { commonName: 'localhost', organization: 'envtest' },
    usage: 'server',
    altNames: ['localhost', '127.0.0.1'],
  });
  const admin = leaf(clients, {
    subject: { commonName: 'envtest-admin', organization: ['system:masters'] },
    usage: 'client',
  });
  const files: Record<string, string> = {
    'apiserver.crt': server.certPem,
    'apiserver.key': server.keyPem,
    'sa-signer.crt': sa.pem,
    'sa-signer.key': pkcs8(sa.privateKey),
    'client-cert-auth-ca.crt': clients.pem,
  };
  await Promise.all(
    Object.entries(files).map(([name, text]) => writeFile(join(certDir, name), text, { mode: 0o640 })),
  );
  return {
    servingCAPem: serving.pem,
    admin,
    args: [
      `--service-account-key-file=${join(certDir, 'sa-signer.crt')}`,
      `--service-account-signing-key-file=${join(certDir, 'sa-signer.key')}`,
      `--client-ca-file=${join(certDir, 'client-cert-auth-ca.crt')}`,
    ],
  };
}
