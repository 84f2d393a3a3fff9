// TokenReview (pkg/registry/authentication/tokenreview/storage.go): authenticates the token of the
// review with the server's own token authenticators, for the review's audiences (the API server's
// when it names none), and answers with the result in status. Nothing is stored, so a dry run
// answers the same.
import type { AuthenticatedUserInfo } from '../../api/authentication/v1/self-subject-review.js';
import type { TokenReview, TokenReviewStatus } from '../../api/authentication/v1/token-review.js';
import type { KubeObject } from '../../api/meta.js';
import { newBadRequest, newInternalError } from '../../machinery/errors/index.js';
import type { ValidateObjectFunc } from '../rest/capabilities.js';
import type { RequestContext, UserInfo } from '../rest/context.js';
import type { CreateOptions } from '../rest/options.js';
import { ReviewREST } from '../rest/review-rest.js';

/** What the server's authenticators said of a token. */
export type TokenReviewResult =
  | {
      readonly authenticated: true;
      readonly user: UserInfo;
      /** The audiences both the token and the review are for (absent when none were asked). */
      readonly audiences?: readonly string[];
    }
  | { readonly authenticated: false; readonly error?: string };

/**
 * The server's bearer token chain, asked as for a request carrying only `Authorization: Bearer
 * <token>` whose target audiences are `audiences` (none: the authenticators' own defaults).
 */
export type TokenReviewAuthenticator = (
  token: string,
  audiences: readonly string[],
  signal: AbortSignal,
) => Promise<TokenReviewResult>;

export interface TokenReviewOptions {
  /** Absent: the review is answered as sent (kube's REST without a token authenticator). */
  readonly authenticate?: TokenReviewAuthenticator;
  /** --api-audiences: what a review without spec.audiences is checked against. */
  readonly apiAudiences: readonly string[];
}

function userInfoOf(user: UserInfo): AuthenticatedUserInfo {
  return {
    username: user.name,
    ...(user.uid === undefined || user.uid === '' ? {} : { uid: user.uid }),
    ...(user.groups.length === 0 ? {} : { groups: [...user.groups] }),
    ...(user.extra === undefined || Object.keys(user.extra).length === 0
      ? {}
      : { extra: Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]])) }),
  };
}

const intersects = (a: readonly string[], b: readonly string[]): boolean => a.some((x) => b.includes(x));

export class TokenReviewREST extends ReviewREST<TokenReview> {
  readonly #opts: TokenReviewOptions;

  constructor(opts: TokenReviewOptions = { apiAudiences: [] }) {
    super({ newObject: () => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: {} }) });
    this.#opts = opts;
  }

  async create(
    ctx: RequestContext,
    obj: KubeObject,
    opts: { options: CreateOptions; validate?: ValidateObjectFunc },
  ): Promise<KubeObject> {
    const review = obj as TokenReview;
    if (ctx.namespace !== '') throw newBadRequest(`namespace is not allowed on this type: ${ctx.namespace}`);
    const token = review.spec.token ?? '';
    if (token === '') throw newBadRequest('token is required for TokenReview in authentication');
    if (opts.validate !== undefined) await opts.validate(ctx, structuredClone(review));
    if (this.#opts.authenticate === undefined) return review;
    const specAudiences = review.spec.audiences ?? [];
    const audiences = specAudiences.length > 0 ? specAudiences : this.#opts.apiAudiences;
    const result = await this.#opts.authenticate(token, audiences, ctx.signal);
    let status: TokenReviewStatus;
    if (result.authenticated) {
      const got = result.audiences ?? [];
      // An authenticator that is not audience aware must not vouch for another audience.
      if (audiences.length > 0 && !intersects(audiences, got))
        throw newInternalError(new Error('error validating audiences'));
      status = {
        authenticated: true,
        user: userInfoOf(result.user),
        ...(got.length === 0 ? {} : { audiences: [...got] }),
      };
    } else {
      // Go's TokenReviewStatus.User is a struct: written as {} even when nobody was found.
      status = { user: {}, ...(result.error === undefined ? {} : { error: result.error }) };
    }
    return { ...review, status } satisfies TokenReview;
  }
}
