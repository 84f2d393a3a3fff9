// kube-controller-manager's CSR signing options (--cluster-signing-cert-file,
// --cluster-signing-key-file, --cluster-signing-duration) and the CA they come to. Without the
// files, Capstan signs with a CA it made itself, as a kind cluster signs with its cluster CA:
// preferably one its client certificate authentication trusts (--client-ca-file naming it, as
// --pki-dir does), so that a certificate issued for a kubernetes.io/kube-apiserver-client request
// authenticates to this server; else its --pki-dir or generated CA all the same, so that approved
// requests are issued. With neither (a --tls-cert-file of the user's), the csrsigning controller
// stays off, as kube's does without files.
import { X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import { pemBlocks } from '../../registry/certificates/certificatesigningrequest/pem.js';
import { errorText } from '../logging/error-text.js';
import { readIfPresent } from '../tls/pem-files.js';
import { loadSigningCA, type SigningCA } from '../tls/signing-ca.js';
import { pkiFiles } from './replica-options.js';

export interface ClusterSigningOptions {
  /** --cluster-signing-cert-file ('' none). */
  certFile: string;
  /** --cluster-signing-key-file ('' none). */
  keyFile: string;
  /** --cluster-signing-duration: the longest lifetime of an issued certificate (kube: 1 year). */
  durationMs: number;
}

export const defaultClusterSigningOptions = (): ClusterSigningOptions => ({
  certFile: '',
  keyFile: '',
  durationMs: 365 * 24 * 3_600_000,
});

/** The CA the csrsigning controller signs with, or why it stays off. */
export type ClusterSigning =
  | { readonly ca: SigningCA; readonly certTTLMs: number; readonly certFile: string }
  | { readonly off: string };

export interface ClusterSigningSources {
  readonly signing: ClusterSigningOptions;
  /** --pki-dir ('' none). */
  readonly pkiDir: string;
  /** Whether Capstan made its serving CA in <data-dir>/pki (no --tls-cert-file). */
  readonly generatedCA: boolean;
  readonly dataDir: string;
  /** The --client-ca-file bundle ('' none). */
  readonly clientCAPem: string;
}

const noFiles = 'Skipping CSR signer controller because no csr cert/key was specified';

async function load(
  files: { certFile: string; keyFile: string },
  certTTLMs: number,
): Promise<ClusterSigning | { readonly error: string }> {
  let cert: string | undefined;
  let key: string | undefined;
  try {
    [cert, key] = await Promise.all([readIfPresent(files.certFile), readIfPresent(files.keyFile)]);
  } catch (err) {
    return { error: errorText(err) };
  }
  if (cert === undefined) return { error: `open ${files.certFile}: no such file or directory` };
  if (key === undefined) return { error: `open ${files.keyFile}: no such file or directory` };
  const ca = loadSigningCA({ cert, key }, files);
  return 'error' in ca ? ca : { ca, certTTLMs, certFile: files.certFile };
}

const fingerprints = (bundle: string): Set<string> =>
  new Set(
    pemBlocks(bundle)
      .filter((b) => b.type === 'CERTIFICATE')
      .map((b) => {
        try {
          return new X509Certificate(b.bytes).fingerprint256;
        } catch {
          return '';
        }
      }),
  );

/** The CA to sign with; `error` when files named by the flags do not make one (the start stops). */
export async function clusterSigningOf(
  s: ClusterSigningSources,
): Promise<ClusterSigning | { readonly error: string }> {
  const { certFile, keyFile, durationMs } = s.signing;
  if (certFile !== '' && keyFile !== '') {
    const given = await load({ certFile, keyFile }, durationMs);
    return 'error' in given
      ? { error: `failed to start kubernetes.io/kubelet-serving certificate controller: ${given.error}` }
      : given;
  }
  if (certFile !== '' || keyFile !== '') return { off: noFiles };
  const trusted = fingerprints(s.clientCAPem);
  const own = [
    ...(s.pkiDir === '' ? [] : [pkiFiles(s.pkiDir)]),
    ...(s.generatedCA
      ? [{ caCert: join(s.dataDir, 'pki', 'ca.crt'), caKey: join(s.dataDir, 'pki', 'ca.key') }]
      : []),
  ];
  // Each of its own CAs whose key it has, the ones client certificates are trusted with first.
  const usable: { certFile: string; keyFile: string; isTrusted: boolean }[] = [];
  for (const files of own) {
    const pem = await readIfPresent(files.caCert).catch(() => undefined);
    const ownCA = pem === undefined ? [] : [...fingerprints(pem)];
    if (ownCA.length === 0) continue;
    usable.push({
      certFile: files.caCert,
      keyFile: files.caKey,
      isTrusted: ownCA.every((f) => trusted.has(f)),
    });
  }
  usable.sort((a, b) => Number(b.isTrusted) - Number(a.isTrusted));
  for (const files of usable) {
    const found = await load(files, durationMs);
    if (!('error' in found)) return found;
  }
  return { off: `${noFiles}, and this server made no CA of its own (with its key) to sign with` };
}
