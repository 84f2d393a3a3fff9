// Bearer token authentication: the static token file of --token-auth-file
// (k8s.io/apiserver/pkg/authentication/token/tokenfile); the header is read in token-authenticator.ts.
import { readFile } from 'node:fs/promises';
import type { UserInfo } from '../../registry/rest/context.js';
import type { Logger } from '../logging/logger.js';
import { parseCsv } from './csv.js';

/** token → user; an immutable value built once at start. */
export type TokenTable = ReadonlyMap<string, UserInfo>;

export async function loadTokenFile(path: string, logger?: Logger): Promise<TokenTable> {
  const records = parseCsv(await readFile(path, 'utf8'));
  const tokens = new Map<string, UserInfo>();
  records.forEach((record, i) => {
    const [token = '', name = '', uid = '', groups] = record;
    if (record.length < 3) {
      throw new Error(
        `token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`,
      );
    }
    if (token === '') {
      logger?.warn(`empty token has been found in token file '${path}', record number '${i + 1}'`);
      return;
    }
    if (tokens.has(token))
      logger?.warn(`duplicate token has been found in token file '${path}', record number '${i + 1}'`);
    tokens.set(token, { name, uid, groups: groups === undefined ? [] : groups.split(',') });
  });
  return tokens;
}

export type AuthenticationResult =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'user';
      readonly user: UserInfo;
      /** The audiences of both the token and the request (audience-aware authenticators, asked for some). */
      readonly audiences?: readonly string[];
    }
  | { readonly kind: 'invalid'; readonly reason: string };

/** Every authenticated user is in system:authenticated (kube's AuthenticatedGroupAdder). */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.groups.includes('system:authenticated')) return user;
  return { ...user, groups: [...user.groups, 'system:authenticated'] };
}
