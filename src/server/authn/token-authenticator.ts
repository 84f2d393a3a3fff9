// The bearer token chain: the header parsing of kube's bearertoken authenticator, then the static
// tokens, then each token authenticator in turn (kube's union); a token none of them knows is refused.
import type { UserInfo } from '../../registry/rest/context.js';
import type { HttpRequest } from '../http/types.js';
import type { AuthenticationResult, TokenTable } from './token-auth.js';

/** `none` when the token is not this authenticator's to judge (another may know it). */
export type TokenAuthenticator = (token: string, signal: AbortSignal) => Promise<AuthenticationResult>;

function bearerToken(req: HttpRequest): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const parts = header.trim().split(' ');
  if (parts.length < 2 || parts[0]?.toLowerCase() !== 'bearer') return undefined;
  return parts[1] ?? '';
}

export async function authenticateToken(
  req: HttpRequest,
  opts: { tokens: TokenTable; authenticators: readonly TokenAuthenticator[]; signal: AbortSignal },
): Promise<AuthenticationResult> {
  const token = bearerToken(req);
  if (token === undefined) return { kind: 'none' };
  if (token === '') return { kind: 'invalid', reason: 'invalid bearer token' };
  const user: UserInfo | undefined = opts.tokens.get(token);
  if (user !== undefined) return { kind: 'user', user };
  for (const authenticate of opts.authenticators) {
    const result = await authenticate(token, opts.signal);
    if (result.kind !== 'none') return result;
  }
  return { kind: 'invalid', reason: 'invalid bearer token' };
}
