// What the tokenreviews storage asks (kube hands its TokenReview REST the server's request
// authenticator): the request's own bearer token chain, run on a token alone, with the review's
// target audiences, and system:authenticated added as for a request.
import type { TokenReviewAuthenticator } from '../../registry/authentication/token-review.js';
import { withAuthenticatedGroup } from './token-auth.js';
import { authenticateBearer, type TokenChain } from './token-authenticator.js';

export function tokenReviewAuthenticator(chain: TokenChain): TokenReviewAuthenticator {
  return async (token, audiences, signal) => {
    const result = await authenticateBearer(token, {
      ...chain,
      signal,
      ...(audiences.length === 0 ? {} : { audiences }),
    });
    switch (result.kind) {
      case 'user':
        return {
          authenticated: true,
          user: withAuthenticatedGroup(result.user),
          ...(result.audiences === undefined ? {} : { audiences: result.audiences }),
        };
      case 'invalid':
        return { authenticated: false, error: result.reason };
      case 'none':
        return { authenticated: false };
    }
  };
}
