// The bearer token chain: the header parsing of kube's bearertoken authenticator, then the static
// tokens, then each token authenticator in turn (kube's union); a token none of them knows is refused.
import type { UserInfo } from '../../registry/rest/context.js';
import type { HttpRequest } from '../http/types.js';
import type { AuthenticationResult, TokenTable } from './token-auth.js';

/** `none` when the token is not this authenticator's to judge (another may know it). */
export type TokenAuthenticator = (token: string, signal: AbortSignal) => Promise<AuthenticationResult>;

const none: AuthenticationResult = { kind: 'none' };
const invalid: AuthenticationResult = { kind: 'invalid', reason: 'invalid bearer token' };

function bearerToken(req: HttpRequest): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const parts = header.trim().split(' ');
  if (parts.length < 2 || parts[0]?.toLowerCase() !== 'bearer') return undefined;
  return parts[1] ?? '';
}

/**
 * The static tokens answer at once (a Map lookup, no promise); only a token they do not know waits
 * for the authenticators.
 */
export function authenticateToken(
  req: HttpRequest,
  opts: { tokens: TokenTable; authenticators: readonly TokenAuthenticator[]; readonly signal: AbortSignal },
): AuthenticationResult | Promise<AuthenticationResult> {
  const token = bearerToken(req);
  if (token === undefined) return none;
  if (token === '') return invalid;
  const user: UserInfo | undefined = opts.tokens.get(token);
  if (user !== undefined) return { kind: 'user', user };
  if (opts.authenticators.length === 0) return invalid;
  return askAuthenticators(token, opts);
}

async function askAuthenticators(
  token: string,
  opts: { authenticators: readonly TokenAuthenticator[]; readonly signal: AbortSignal },
): Promise<AuthenticationResult> {
  for (const authenticate of opts.authenticators) {
    const result = await authenticate(token, opts.signal);
    if (result.kind !== 'none') return result;
  }
  return invalid;
}
