// kube-controller-manager's CSR signing options (--cluster-signing-cert-file,
// --cluster-signing-key-file, the per-signer --cluster-signing-<signer>-{cert,key}-file pairs,
// --cluster-signing-duration) and the CA each signer comes to. Without any files, Capstan signs with
// a CA it made itself, as a kind cluster signs with its cluster CA: preferably one its client
// certificate authentication trusts (--client-ca-file naming it, as --pki-dir does), so that a
// certificate issued for a kubernetes.io/kube-apiserver-client request authenticates to this
// server; else its --pki-dir or generated CA all the same, so that approved requests are issued.
// With neither (a --tls-cert-file of the user's), the csrsigning controller stays off, as kube's
// does without files.
import { X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import {
  builtinSignerNames,
  kubeAPIServerClientSignerName,
  kubeletClientSignerName,
  kubeletServingSignerName,
  legacyUnknownSignerName,
  type BuiltinSignerName,
} from '../../api/certificates/v1/certificate-signing-request.js';
import { pemBlocks } from '../../registry/certificates/certificatesigningrequest/pem.js';
import { errorText } from '../logging/error-text.js';
import { readIfPresent } from '../tls/pem-files.js';
import { loadSigningCA, type SigningCA } from '../tls/signing-ca.js';
import { pkiFiles } from './replica-options.js';

/** A CA's two files ('' none). */
export interface SigningFiles {
  certFile: string;
  keyFile: string;
}

/** The signers' names in the --cluster-signing-<name>-{cert,key}-file flags. */
export const signerFlagNames: Readonly<Record<BuiltinSignerName, string>> = {
  [kubeletServingSignerName]: 'kubelet-serving',
  [kubeletClientSignerName]: 'kubelet-client',
  [kubeAPIServerClientSignerName]: 'kube-apiserver-client',
  [legacyUnknownSignerName]: 'legacy-unknown',
};

export interface ClusterSigningOptions extends SigningFiles {
  /** The per-signer files; any of them set, the pair above may not be. */
  signers: Record<BuiltinSignerName, SigningFiles>;
  /** --cluster-signing-duration: the longest lifetime of an issued certificate (kube: 1 year). */
  durationMs: number;
}

const noSigningFiles = (): SigningFiles => ({ certFile: '', keyFile: '' });

export const defaultClusterSigningOptions = (): ClusterSigningOptions => ({
  certFile: '',
  keyFile: '',
  signers: {
    [kubeletServingSignerName]: noSigningFiles(),
    [kubeletClientSignerName]: noSigningFiles(),
    [kubeAPIServerClientSignerName]: noSigningFiles(),
    [legacyUnknownSignerName]: noSigningFiles(),
  },
  durationMs: 365 * 24 * 3_600_000,
});

/** A signer's CA and the file its certificate came from. */
export interface LoadedCA {
  readonly ca: SigningCA;
  readonly certFile: string;
}

/**
 * The CA of each signer the csrsigning controller runs (one CA for all four unless per-signer files
 * were given), or why it stays off. `skipped` names the signers given no files of their own while
 * others were: kube runs no loop for those, so their requests stay unissued.
 */
export type ClusterSigning =
  | {
      readonly signers: ReadonlyMap<BuiltinSignerName, LoadedCA>;
      readonly skipped: readonly BuiltinSignerName[];
      readonly certTTLMs: number;
    }
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

async function load(files: SigningFiles): Promise<LoadedCA | { readonly error: string }> {
  // dynamiccertificates.NewDynamicServingContentFromFiles, which each signer's loop reads through.
  if (files.certFile === '' || files.keyFile === '') return { error: 'missing filename for serving cert' };
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
  return 'error' in ca ? ca : { ca, certFile: files.certFile };
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

const given = (f: SigningFiles): boolean => f.certFile !== '' || f.keyFile !== '';

/** Every signer with the one CA. */
function allSigners(ca: LoadedCA, certTTLMs: number): ClusterSigning {
  return { signers: new Map(builtinSignerNames.map((n) => [n, ca])), skipped: [], certTTLMs };
}

/**
 * The per-signer files, as kube-controller-manager reads them once any is given: each signer with
 * a file of its own gets its CA, the others none.
 */
async function perSigner(s: ClusterSigningOptions): Promise<ClusterSigning | { readonly error: string }> {
  const signers = new Map<BuiltinSignerName, LoadedCA>();
  const skipped: BuiltinSignerName[] = [];
  for (const name of builtinSignerNames) {
    const files = s.signers[name];
    if (!given(files)) {
      skipped.push(name);
      continue;
    }
    const loaded = await load(files);
    if ('error' in loaded)
      return { error: `failed to start ${name} certificate controller: ${loaded.error}` };
    signers.set(name, loaded);
  }
  return { signers, skipped, certTTLMs: s.durationMs };
}

/** The CAs to sign with; `error` when files named by the flags do not make one (the start stops). */
export async function clusterSigningOf(
  s: ClusterSigningSources,
): Promise<ClusterSigning | { readonly error: string }> {
  const { certFile, keyFile, durationMs } = s.signing;
  const single = certFile !== '' && keyFile !== '';
  const specific = builtinSignerNames.some((n) => given(s.signing.signers[n]));
  if (single && specific)
    return { error: 'cannot specify default and per controller certs at the same time' };
  if (specific) return perSigner(s.signing);
  if (single) {
    const loaded = await load({ certFile, keyFile });
    return 'error' in loaded
      ? { error: `failed to start ${kubeletServingSignerName} certificate controller: ${loaded.error}` }
      : allSigners(loaded, durationMs);
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
  const usable: (SigningFiles & { isTrusted: boolean })[] = [];
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
    const found = await load(files);
    if (!('error' in found)) return allSigners(found, durationMs);
  }
  return { off: `${noFiles}, and this server made no CA of its own (with its key) to sign with` };
}
