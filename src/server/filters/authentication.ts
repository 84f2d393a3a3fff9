// Authentication (kube's WithAuthentication with the union of token authenticators and the
// anonymous authenticator). Without credentials a request is anonymous when --anonymous-auth is on
// (and, with --authentication-config's anonymous.conditions, only at those paths); otherwise it
// is answered 401 whatever the path, /healthz, /livez, /readyz and /version included, as kube
// answers them. Credentials that do not authenticate are answered 401 whatever the path.
import { anonymousUser } from '../../registry/rest/context.js';
import { newUnauthorized } from '../../machinery/errors/index.js';
import { writeStatus } from '../http/respond.js';
import { removeHeader } from '../http/remove-headers.js';
import { withAuthenticatedGroup, type AuthenticationResult, type TokenTable } from '../authn/token-auth.js';
import { authenticateToken, type TokenAuthenticator, type TokenChain } from '../authn/token-authenticator.js';

/** Judges a request from what its connection and headers carry, synchronously. */
export interface RequestAuthenticator {
  authenticate(req: HttpRequest): AuthenticationResult;
}
import type { HttpRequest } from '../http/types.js';
import type { Logger } from '../logging/logger.js';
import type { UserInfo } from '../../registry/rest/context.js';
import type { Filter, FilterScope, Handler } from './filter-scope.js';

export interface AuthenticationOptions {
  readonly tokens: TokenTable;
  readonly tokenAuthenticators?: readonly TokenAuthenticator[];
  /** --api-audiences: what every request's token is checked for, as kube does (none: no check). */
  readonly apiAudiences?: readonly string[];
  /**
   * Asked in turn before the bearer token: the request-header authenticator, then client
   * certificates (kube's union order).
   */
  readonly requestAuthenticators?: readonly RequestAuthenticator[];
  /** Requests without credentials proceed as system:anonymous (authorization then decides what they reach). */
  readonly anonymous: boolean;
  /** With `anonymous`, the only paths it applies to (kube's anonymous.conditions); absent: every path. */
  readonly anonymousPaths?: readonly string[];
  readonly logger: Logger;
  /** Told of each request refused with 401 before it is answered (the failed-authentication audit). */
  readonly onUnauthorized?: (scope: FilterScope) => void;
}

export function withAuthentication(opts: AuthenticationOptions): Filter {
  const authenticators = opts.tokenAuthenticators ?? [];
  const audiences = (opts.apiAudiences ?? []).length === 0 ? undefined : opts.apiAudiences;
  const requestAuthenticators = opts.requestAuthenticators ?? [];
  const chain: TokenChain & { readonly audiences?: readonly string[] } = {
    tokens: opts.tokens,
    authenticators,
    ...(audiences === undefined ? {} : { audiences, apiAudiences: audiences }),
  };
  // The user each static token stands for, with system:authenticated added once, not per request.
  const authenticated = new WeakMap<UserInfo, UserInfo>();
  const withGroup = (user: UserInfo): UserInfo => {
    let out = authenticated.get(user);
    if (out === undefined) {
      out = withAuthenticatedGroup(user);
      authenticated.set(user, out);
    }
    return out;
  };
  const anonymousPaths = opts.anonymousPaths === undefined ? undefined : new Set(opts.anonymousPaths);
  const anonymousAt = (path: string): boolean =>
    opts.anonymous && (anonymousPaths === undefined || anonymousPaths.has(path));
  const unauthorized = (scope: FilterScope): Promise<void> => {
    opts.onUnauthorized?.(scope);
    writeStatus(scope.res, newUnauthorized('').status);
    return Promise.resolve();
  };
  const admit = (scope: FilterScope, result: AuthenticationResult, next: Handler): Promise<void> => {
    switch (result.kind) {
      case 'user':
        scope.user = withGroup(result.user);
        // Not needed past authentication, and not to be passed on.
        if (scope.req.headers.authorization !== undefined) removeHeader(scope.req, 'authorization');
        break;
      case 'invalid':
        opts.logger.v(4, 'Unable to authenticate the request', { err: result.reason });
        return unauthorized(scope);
      case 'none':
        if (!anonymousAt(scope.url.pathname)) return unauthorized(scope);
        scope.user = anonymousUser;
        break;
    }
    return next(scope);
  };
  return (next) => (scope) => {
    // kube's union: the first authenticator that knows the user wins; a failure (a certificate
    // that does not verify) refuses the request unless a later one authenticates it.
    let certificate: AuthenticationResult | undefined;
    for (const a of requestAuthenticators) {
      const r = a.authenticate(scope.req);
      if (r.kind === 'user') return admit(scope, r, next);
      if (r.kind === 'invalid') certificate ??= r;
    }
    const result = authenticateToken(scope.req, new RequestTokenChain(chain, scope));
    if (certificate?.kind === 'invalid') {
      const orCertificate = (r: AuthenticationResult): AuthenticationResult =>
        r.kind === 'none' ? certificate : r;
      return result instanceof Promise
        ? result.then((r) => admit(scope, orCertificate(r), next))
        : admit(scope, orCertificate(result), next);
    }
    return result instanceof Promise ? result.then((r) => admit(scope, r, next)) : admit(scope, result, next);
  };
}

/**
 * The token chain as one request asks it. A class, not an object literal with a getter, which V8
 * defines anew on every object: only token authenticators past the static table read the signal.
 */
class RequestTokenChain implements TokenChain {
  readonly tokens: TokenTable;
  readonly authenticators: readonly TokenAuthenticator[];
  readonly audiences: readonly string[] | undefined;
  readonly apiAudiences: readonly string[] | undefined;
  readonly #scope: FilterScope;

  constructor(chain: TokenChain & { readonly audiences?: readonly string[] }, scope: FilterScope) {
    this.tokens = chain.tokens;
    this.authenticators = chain.authenticators;
    this.audiences = chain.audiences;
    this.apiAudiences = chain.apiAudiences;
    this.#scope = scope;
  }

  get signal(): AbortSignal {
    return this.#scope.signal;
  }
}
