// The bearer token chain: the header parsing of kube's bearertoken authenticator, then the static
// tokens, then each token authenticator in turn (kube's union); a token none of them knows is refused.
import type { UserInfo } from '../../registry/rest/context.js';
import type { HttpRequest } from '../http/types.js';
import type { AuthenticationResult, TokenTable } from './token-auth.js';

/**
 * `none` when the token is not this authenticator's to judge (another may know it). `audiences`
 * are the target audiences (a TokenReview's); absent, the authenticator's own (the API audiences).
 */
export type TokenAuthenticator = (
  token: string,
  signal: AbortSignal,
  audiences?: readonly string[],
) => Promise<AuthenticationResult>;

const none: AuthenticationResult = { kind: 'none' };
const invalid: AuthenticationResult = { kind: 'invalid', reason: 'invalid bearer token' };

function bearerToken(req: HttpRequest): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const parts = header.trim().split(' ');
  if (parts.length < 2 || parts[0]?.toLowerCase() !== 'bearer') return undefined;
  return parts[1] ?? '';
}

/** Audiences in both lists, in the order of the first (kube's Audiences.Intersect). */
export function intersectAudiences(a: readonly string[], b: readonly string[]): string[] {
  return a.filter((x) => b.includes(x));
}

/**
 * kube's WrapAudienceAgnosticToken: an authenticator that knows nothing of audiences vouches only
 * for target audiences among the API server's own (`implicit`), and says which.
 */
export function audienceAgnostic(
  implicit: readonly string[],
  authenticate: TokenAuthenticator,
): TokenAuthenticator {
  return async (token, signal, audiences) => {
    if (audiences === undefined) return authenticate(token, signal);
    const auds = intersectAudiences(implicit, audiences);
    if (auds.length === 0) return none;
    const result = await authenticate(token, signal);
    return result.kind === 'user' ? { ...result, audiences: auds } : result;
  };
}

export interface TokenChain {
  readonly tokens: TokenTable;
  readonly authenticators: readonly TokenAuthenticator[];
  /** The static tokens are audience agnostic: with target audiences, they vouch only for these. */
  readonly apiAudiences?: readonly string[] | undefined;
}

/**
 * One bearer token through the chain. The static tokens answer at once (a Map lookup, no
 * promise); only a token they do not know waits for the authenticators.
 */
export function authenticateBearer(
  token: string,
  chain: TokenChain & { readonly signal: AbortSignal; readonly audiences?: readonly string[] | undefined },
): AuthenticationResult | Promise<AuthenticationResult> {
  if (token === '') return invalid;
  const user: UserInfo | undefined = chain.tokens.get(token);
  if (user !== undefined) {
    if (chain.audiences === undefined) return { kind: 'user', user };
    // A request asks for the API audiences themselves: their intersection with themselves is they,
    // so nothing is computed on every request (a TokenReview's own audiences do need it).
    if (chain.audiences === chain.apiAudiences && chain.audiences.length > 0)
      return { kind: 'user', user, audiences: chain.audiences };
    const auds = intersectAudiences(chain.apiAudiences ?? [], chain.audiences);
    if (auds.length > 0) return { kind: 'user', user, audiences: auds };
  }
  if (chain.authenticators.length === 0) return invalid;
  return askAuthenticators(token, chain);
}

export function authenticateToken(
  req: HttpRequest,
  opts: TokenChain & { readonly signal: AbortSignal; readonly audiences?: readonly string[] | undefined },
): AuthenticationResult | Promise<AuthenticationResult> {
  const token = bearerToken(req);
  if (token === undefined) return none;
  return authenticateBearer(token, opts);
}

async function askAuthenticators(
  token: string,
  chain: {
    authenticators: readonly TokenAuthenticator[];
    readonly signal: AbortSignal;
    readonly audiences?: readonly string[] | undefined;
  },
): Promise<AuthenticationResult> {
  for (const authenticate of chain.authenticators) {
    const result = await authenticate(token, chain.signal, chain.audiences);
    if (result.kind !== 'none') return result;
  }
  return invalid;
}
