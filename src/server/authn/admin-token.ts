// The admin bearer token: made once, kept in <data-dir>/pki/admin.token so the kubeconfig written
// at one start keeps working after the next.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { UserInfo } from '../../registry/rest/context.js';

export const adminUser: UserInfo = {
  name: 'capstan-admin',
  uid: 'capstan-admin',
  groups: ['system:masters'],
};

export function newAdminToken(): string {
  return randomBytes(32).toString('base64url');
}

export async function ensureAdminToken(path: string): Promise<string> {
  try {
    const existing = (await readFile(path, 'utf8')).trim();
    if (existing !== '') return existing;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const token = newAdminToken();
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, `${token}\n`, { mode: 0o600 });
  return token;
}
