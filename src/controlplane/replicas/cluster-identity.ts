// Replicas on one store must be one cluster: the first replica records the cluster's CA and service
// account signing key (their SHA-256 fingerprints) under a key of Capstan's own in the storage
// prefix; a replica whose CA differs, or that cannot verify tokens signed with the recorded key,
// refuses to start and says which. Only shared stores (etcd) are checked: a local one has one server.
import { X509Certificate, createHash, createPublicKey, type KeyObject } from 'node:crypto';
import type { Backend } from '../../storage/kv/backend.js';
import type { CompletedServerRunOptions } from '../../server/options/complete.js';

export interface ClusterIdentity {
  readonly kind: 'CapstanClusterIdentity';
  /** `sha256:<hex>` of the CA clients trust (or of what stands for it, see caIdentityOf). */
  readonly certificateAuthority: string;
  /** `sha256:<hex>` of the service account signing key's public key. */
  readonly serviceAccountSigningKey: string;
}

/** The replica refuses to start; the message names what differs. */
export class ClusterIdentityMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClusterIdentityMismatchError';
  }
}

export const clusterIdentityKey = (prefix: string): string =>
  `${prefix.replace(/\/+$/, '')}/capstan/cluster-identity`;

const keyFingerprint = (key: KeyObject): string =>
  `sha256:${createHash('sha256')
    .update(key.export({ type: 'spki', format: 'der' }))
    .digest('hex')}`;

const certFingerprint = (pem: string): string =>
  `sha256:${new X509Certificate(pem).fingerprint256.replaceAll(':', '').toLowerCase()}`;

/**
 * The CA of this replica: the PKI directory's or the generated one (caPem); for a serving certificate
 * given alone, the client CA when there is one (kube setups share it), else the certificate's issuer
 * name (each replica may have its own leaf).
 */
function caIdentityOf(o: CompletedServerRunOptions): string {
  if (o.tlsCertFile === '' || o.replicas.pkiDir !== '')
    return o.caPem === undefined ? 'none' : certFingerprint(o.caPem);
  if (o.clientCAPem !== '') return certFingerprint(o.clientCAPem);
  const issuer = new X509Certificate(o.tls?.certPem ?? o.caPem ?? '').issuer;
  return `issuer:${issuer.replaceAll('\n', ',')}`;
}

export function clusterIdentityOf(o: CompletedServerRunOptions): ClusterIdentity {
  return {
    kind: 'CapstanClusterIdentity',
    certificateAuthority: caIdentityOf(o),
    serviceAccountSigningKey: keyFingerprint(createPublicKey(o.serviceAccountKeys.signer.key)),
  };
}

function compare(
  recorded: ClusterIdentity,
  mine: ClusterIdentity & { readonly verifying: readonly string[] },
  key: string,
): void {
  if (recorded.certificateAuthority !== mine.certificateAuthority)
    throw new ClusterIdentityMismatchError(
      `refusing to start: this server's certificate authority (${mine.certificateAuthority}) differs from the one the cluster on this storage was started with (${recorded.certificateAuthority}, recorded at ${key}); start every replica with the same CA (--pki-dir, or --tls-cert-file and --client-ca-file)`,
    );
  const { verifying } = mine;
  if (!verifying.includes(recorded.serviceAccountSigningKey))
    throw new ClusterIdentityMismatchError(
      `refusing to start: the cluster's service account signing key (${recorded.serviceAccountSigningKey}, recorded at ${key}) is not among this server's service account keys (${verifying.join(', ')}); start every replica with the same --service-account-key-file and --service-account-signing-key-file (or --pki-dir)`,
    );
}

/** Records this replica's identity if none is, else checks it against the recorded one. */
export async function ensureClusterIdentity(
  backend: Backend,
  prefix: string,
  o: CompletedServerRunOptions,
): Promise<void> {
  if (backend.sessions === undefined) return;
  const key = clusterIdentityKey(prefix);
  const mine = clusterIdentityOf(o);
  for (let attempt = 0; attempt < 3; attempt++) {
    const { kv } = await backend.get(key);
    if (kv !== null) {
      const verifying = o.serviceAccountKeys.publicKeys.map(keyFingerprint);
      compare(JSON.parse(kv.value.toString('utf8')) as ClusterIdentity, { ...mine, verifying }, key);
      return;
    }
    // Replicas starting together: one create wins, the others read and compare what it wrote.
    if ((await backend.create(key, Buffer.from(JSON.stringify(mine)))).ok) return;
  }
}
