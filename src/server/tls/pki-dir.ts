// The PKI directory every replica of a cluster is pointed at (`capstan pki`, as kubeadm's
// /etc/kubernetes/pki): a CA, a serving certificate for the SANs asked for, the service account
// key pair, and admin credentials (a client certificate in system:masters and a kubeconfig that
// uses it). A CA or service account key already there is kept, so running it again for new
// SANs does not change the cluster's identity; the certificates it signs are made again.
import { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { pkiFiles } from '../options/replica-options.js';
import { createCertificate, type DistinguishedName, type Issuer } from './certificate.js';
import { keyPem, newKeyPair, readIfPresent, writeAtomic } from './pem-files.js';
import { defaultAltNames } from './self-signed.js';

const day = 86_400_000;

export interface PKIDirOptions {
  readonly dir: string;
  /** Extra DNS names and IPs the serving certificate covers (each replica's address). */
  readonly sans: readonly string[];
  /** The server URL in admin.kubeconfig. */
  readonly server: string;
  readonly now?: number;
}

export interface PKIDirResult {
  /** Files made this run (the CA and SA key are kept when present). */
  readonly written: readonly string[];
  readonly kept: readonly string[];
}

function issuerOf(caPem: string, caKeyPem: string): Issuer {
  const commonName = /CN=([^\n]*)/.exec(new X509Certificate(caPem).subject)?.[1] ?? 'capstan-ca';
  return { name: { commonName }, publicKey: createPublicKey(caPem), privateKey: createPrivateKey(caKeyPem) };
}

function newCA(now: number): { caPem: string; keyPem: string } {
  const keys = newKeyPair();
  const name: DistinguishedName = { commonName: `capstan-ca@${Math.floor(now / 1000)}` };
  const caPem = createCertificate(
    {
      subject: name,
      publicKey: keys.publicKey,
      notBefore: new Date(now - 3_600_000),
      notAfter: new Date(now + 3650 * day),
      isCA: true,
    },
    { name, ...keys },
  );
  return { caPem, keyPem: keyPem(keys.privateKey) };
}

function leaf(
  issuer: Issuer,
  t: { subject: DistinguishedName; usage: 'server' | 'client'; altNames?: readonly string[] },
  now: number,
): { certPem: string; keyPem: string } {
  const keys = newKeyPair();
  const certPem = createCertificate(
    {
      subject: t.subject,
      publicKey: keys.publicKey,
      notBefore: new Date(now - 3_600_000),
      notAfter: new Date(now + 365 * day),
      isCA: false,
      usage: t.usage,
      ...(t.altNames === undefined ? {} : { altNames: t.altNames }),
    },
    issuer,
  );
  return { certPem, keyPem: keyPem(keys.privateKey) };
}

/** kubeadm's admin.conf: the cluster's CA and a client certificate (YAML's JSON form). */
function adminKubeconfig(server: string, caPem: string, admin: { certPem: string; keyPem: string }): string {
  const b64 = (s: string): string => Buffer.from(s).toString('base64');
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'capstan', cluster: { server, 'certificate-authority-data': b64(caPem) } }],
    users: [
      {
        name: 'kubernetes-admin',
        user: { 'client-certificate-data': b64(admin.certPem), 'client-key-data': b64(admin.keyPem) },
      },
    ],
    contexts: [
      { name: 'kubernetes-admin@capstan', context: { cluster: 'capstan', user: 'kubernetes-admin' } },
    ],
    'current-context': 'kubernetes-admin@capstan',
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** Writes (or completes) the directory; see the file comment. */
export async function writePKIDir(o: PKIDirOptions): Promise<PKIDirResult> {
  const now = o.now ?? Date.now();
  const f = pkiFiles(o.dir);
  await mkdir(o.dir, { recursive: true, mode: 0o700 });
  const written: string[] = [];
  const kept: string[] = [];
  const put = async (path: string, content: string, mode: number): Promise<void> => {
    await writeAtomic(path, content, mode);
    written.push(path);
  };
  let [caPem, caKey] = await Promise.all([readIfPresent(f.caCert), readIfPresent(f.caKey)]);
  if (caPem === undefined || caKey === undefined) {
    const ca = newCA(now);
    [caPem, caKey] = [ca.caPem, ca.keyPem];
    await put(f.caKey, caKey, 0o600);
    await put(f.caCert, caPem, 0o644);
  } else kept.push(f.caCert, f.caKey);
  const saKey = await readIfPresent(f.saKey);
  if (saKey === undefined) {
    const sa = newKeyPair();
    await put(f.saKey, keyPem(sa.privateKey), 0o600);
    await put(f.saPub, sa.publicKey.export({ type: 'spki', format: 'pem' }).toString(), 0o644);
  } else {
    kept.push(f.saKey);
    const pub = createPublicKey(createPrivateKey(saKey)).export({ type: 'spki', format: 'pem' });
    await put(f.saPub, pub.toString(), 0o644);
  }
  const issuer = issuerOf(caPem, caKey);
  const serving = leaf(
    issuer,
    { subject: { commonName: 'kube-apiserver' }, usage: 'server', altNames: defaultAltNames('', o.sans) },
    now,
  );
  await put(f.servingKey, serving.keyPem, 0o600);
  await put(f.servingCert, serving.certPem, 0o644);
  const admin = leaf(
    issuer,
    { subject: { commonName: 'kubernetes-admin', organization: 'system:masters' }, usage: 'client' },
    now,
  );
  await put(f.adminKey, admin.keyPem, 0o600);
  await put(f.adminCert, admin.certPem, 0o644);
  await put(f.adminKubeconfig, adminKubeconfig(o.server, caPem, admin), 0o600);
  return { written, kept };
}
