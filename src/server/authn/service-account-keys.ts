// The service account token keys (kube-apiserver's --service-account-signing-key-file,
// --service-account-key-file, --service-account-issuer, --api-audiences): read from files, or an
// EC P-256 key made once and kept in <data-dir>/pki/sa.key so tokens outlive a restart (kept in
// memory only when nothing is persisted).
import {
  X509Certificate,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { newTokenSigner, type TokenSigner } from '../../registry/core/serviceaccount/jwt.js';

export const defaultServiceAccountIssuer = 'https://kubernetes.default.svc.cluster.local';

export interface ServiceAccountKeys {
  readonly signer: TokenSigner;
  /** The keys a token may be signed with. */
  readonly publicKeys: readonly KeyObject[];
  /** The first issues tokens; tokens of every one are accepted. */
  readonly issuers: readonly string[];
  /** The audiences the API server identifies as (--api-audiences, else the issuers). */
  readonly apiAudiences: readonly string[];
}

export interface ServiceAccountKeyOptions {
  readonly signingKeyFile: string;
  readonly keyFiles: readonly string[];
  readonly issuers: readonly string[];
  readonly apiAudiences: readonly string[];
  /** Where a generated key is kept; undefined keeps it in memory. */
  readonly generatedKeyPath: string | undefined;
}

const pemBlock = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

/** keyutil.ParsePublicKeysPEM: every public key, private key or certificate in a PEM file. */
export function parsePublicKeysPEM(pem: string, file: string): KeyObject[] {
  const keys: KeyObject[] = [];
  for (const m of pem.matchAll(pemBlock)) {
    const [block, type = ''] = m;
    if (type === 'CERTIFICATE') keys.push(new X509Certificate(block).publicKey);
    else if (type.endsWith('PRIVATE KEY') || type.endsWith('PUBLIC KEY')) keys.push(createPublicKey(block));
  }
  if (keys.length === 0)
    throw new Error(`data does not contain any valid RSA or ECDSA public keys (${file})`);
  return keys;
}

async function generatedKey(path: string | undefined): Promise<KeyObject> {
  if (path !== undefined) {
    try {
      return createPrivateKey(await readFile(path, 'utf8'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  if (path !== undefined) {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFile(path, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  }
  return privateKey;
}

export async function loadServiceAccountKeys(o: ServiceAccountKeyOptions): Promise<ServiceAccountKeys> {
  const privateKey =
    o.signingKeyFile !== ''
      ? createPrivateKey(await readFile(o.signingKeyFile, 'utf8'))
      : await generatedKey(o.generatedKeyPath);
  const signer = newTokenSigner(privateKey);
  const fileKeys = await Promise.all(
    o.keyFiles.map(async (file) => parsePublicKeysPEM(await readFile(file, 'utf8'), file)),
  );
  const publicKeys = fileKeys.flat();
  // kube verifies with the signing key when no key file is given; a generated key always verifies.
  if (publicKeys.length === 0 || o.signingKeyFile === '') publicKeys.push(createPublicKey(privateKey));
  const issuers = o.issuers.length > 0 ? [...o.issuers] : [defaultServiceAccountIssuer];
  const apiAudiences = o.apiAudiences.length > 0 ? [...o.apiAudiences] : [...issuers];
  return { signer, publicKeys, issuers, apiAudiences };
}
