// Webhook token authentication (k8s.io/apiserver/plugin/pkg/authenticator/token/webhook): a bearer
// token the other authenticators do not know is sent to a remote service as an
// authentication.k8s.io/v1 TokenReview; its answers are cached for --authentication-token-webhook-cache-ttl.
import { createHash } from 'node:crypto';
import type { UserInfo } from '../../registry/rest/context.js';
import type { AuthenticationResult } from './token-auth.js';
import { intersectAudiences } from './token-authenticator.js';
import { postToWebhook, type WebhookTarget } from './webhook-client.js';

interface TokenReviewStatus {
  authenticated?: boolean;
  audiences?: string[];
  user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  error?: string;
}

/** --authentication-token-webhook-version: the TokenReview versions kube can send. */
export const tokenReviewVersions = ['v1', 'v1beta1'] as const;
export type TokenReviewVersion = (typeof tokenReviewVersions)[number];

/** kube's error for another --authentication-token-webhook-version; undefined for a known one. */
export function tokenReviewVersionError(version: string): string | undefined {
  return (tokenReviewVersions as readonly string[]).includes(version)
    ? undefined
    : `unsupported authentication webhook version ${JSON.stringify(version)}, supported versions are "v1", "v1beta1"`;
}

export interface WebhookTokenOptions {
  readonly target: WebhookTarget;
  readonly cacheTTLMs: number;
  /** The TokenReview version sent and expected back (kube's default: v1beta1, of the same shape). */
  readonly version?: TokenReviewVersion;
  /** The API server's audiences: what a review that names none in its answer was for. */
  readonly implicitAudiences?: readonly string[];
  /** Milliseconds; injected so tests move time. */
  readonly now?: () => number;
}

const maxCached = 4096;

export class WebhookTokenAuthenticator {
  readonly #opts: WebhookTokenOptions;
  /** sha256(token) → answer and when it goes stale; the token itself is not kept. */
  readonly #cache = new Map<string, { result: AuthenticationResult; expires: number }>();

  constructor(opts: WebhookTokenOptions) {
    this.#opts = opts;
  }

  /**
   * kube's webhook authenticator is audience aware: target audiences go in spec.audiences, and a
   * user is accepted only for those among the audiences the answer names (else the API server's).
   */
  readonly authenticate = async (
    token: string,
    signal: AbortSignal,
    audiences?: readonly string[],
  ): Promise<AuthenticationResult> => {
    const now = (this.#opts.now ?? Date.now)();
    const hash = createHash('sha256');
    // kube's token cache keys on the audiences too.
    if (audiences !== undefined) hash.update(JSON.stringify(audiences)).update('\0');
    const key = hash.update(token).digest('base64');
    const cached = this.#cache.get(key);
    if (cached !== undefined && cached.expires > now) return cached.result;
    let result: AuthenticationResult;
    try {
      const status = await this.#review(token, audiences, signal);
      result = toResult(status, audiences, this.#opts.implicitAudiences ?? []);
    } catch (err) {
      // Faults are not cached: the next request asks again.
      return { kind: 'invalid', reason: `Post "${this.#opts.target.server}": ${(err as Error).message}` };
    }
    if (this.#opts.cacheTTLMs > 0) {
      if (this.#cache.size >= maxCached) this.#cache.delete(this.#cache.keys().next().value ?? '');
      this.#cache.set(key, { result, expires: now + this.#opts.cacheTTLMs });
    }
    return result;
  };

  async #review(
    token: string,
    audiences: readonly string[] | undefined,
    signal: AbortSignal,
  ): Promise<TokenReviewStatus> {
    const body = JSON.stringify({
      apiVersion: `authentication.k8s.io/${this.#opts.version ?? 'v1'}`,
      kind: 'TokenReview',
      spec: { token, ...(audiences === undefined ? {} : { audiences }) },
    });
    const res = await postToWebhook(this.#opts.target, { body, signal });
    if (res.statusCode < 200 || res.statusCode > 299)
      throw new Error(`the server responded with the status code ${res.statusCode}`);
    const review = JSON.parse(res.text) as { status?: TokenReviewStatus };
    return review.status ?? {};
  }
}

function toResult(
  status: TokenReviewStatus,
  wanted: readonly string[] | undefined,
  implicit: readonly string[],
): AuthenticationResult {
  if (status.authenticated !== true) {
    return status.error === undefined || status.error === ''
      ? { kind: 'none' }
      : { kind: 'invalid', reason: status.error };
  }
  let audiences: string[] | undefined;
  if (wanted !== undefined) {
    const got = (status.audiences ?? []).length > 0 ? (status.audiences ?? []) : implicit;
    audiences = intersectAudiences(wanted, got);
    if (audiences.length === 0) return { kind: 'none' };
  }
  const u = status.user ?? {};
  const user: UserInfo = {
    name: u.username ?? '',
    groups: u.groups ?? [],
    ...(u.uid === undefined ? {} : { uid: u.uid }),
    ...(u.extra === undefined ? {} : { extra: u.extra }),
  };
  return { kind: 'user', user, ...(audiences === undefined ? {} : { audiences }) };
}
