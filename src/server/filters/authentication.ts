// Authentication (kube's WithAuthentication with the union of token authenticators and the
// anonymous authenticator). Without credentials a request is anonymous only for the public health
// and version paths (what kube's system:public-info-viewer grants) unless --anonymous-auth is set;
// credentials that do not authenticate are answered 401 whatever the path.
import { anonymousUser } from '../../registry/rest/context.js';
import { newUnauthorized } from '../../machinery/errors/index.js';
import { writeStatus } from '../http/respond.js';
import { withAuthenticatedGroup, type TokenTable } from '../authn/token-auth.js';
import { authenticateToken, type TokenAuthenticator } from '../authn/token-authenticator.js';
import type { Logger } from '../logging/logger.js';
import type { Filter } from './filter-scope.js';

export const publicInfoPaths: ReadonlySet<string> = new Set([
  '/healthz',
  '/livez',
  '/readyz',
  '/version',
  '/version/',
]);

export interface AuthenticationOptions {
  readonly tokens: TokenTable;
  readonly tokenAuthenticators?: readonly TokenAuthenticator[];
  /** Requests without credentials proceed as system:anonymous (authorization then decides what they reach). */
  readonly anonymous: boolean;
  readonly logger: Logger;
}

export function withAuthentication(opts: AuthenticationOptions): Filter {
  const authenticators = opts.tokenAuthenticators ?? [];
  return (next) => async (scope) => {
    const result = await authenticateToken(scope.req, {
      tokens: opts.tokens,
      authenticators,
      // Only token authenticators past the static table read it.
      get signal() {
        return scope.signal;
      },
    });
    switch (result.kind) {
      case 'user':
        scope.user = withAuthenticatedGroup(result.user);
        break;
      case 'invalid':
        opts.logger.v(4, 'Unable to authenticate the request', { err: result.reason });
        writeStatus(scope.res, newUnauthorized('').status);
        return;
      case 'none':
        if (!opts.anonymous && !publicInfoPaths.has(scope.url.pathname)) {
          writeStatus(scope.res, newUnauthorized('').status);
          return;
        }
        scope.user = anonymousUser;
        break;
    }
    await next(scope);
  };
}
