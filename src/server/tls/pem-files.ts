// Key material on disk, shared by the self-signed serving setup and the PKI directory: P-256 key
// pairs, PKCS#8 PEM, files read when present and written atomically (aside, then renamed).
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';

export async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export async function writeAtomic(path: string, content: string, mode: number): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, content, { mode });
  await rename(tmp, path);
}

export const keyPem = (key: KeyObject): string => key.export({ type: 'pkcs8', format: 'pem' }).toString();

export const newKeyPair = (): { publicKey: KeyObject; privateKey: KeyObject } =>
  generateKeyPairSync('ec', { namedCurve: 'P-256' });
