// --authorization-mode=Webhook (k8s.io/apiserver/plugin/pkg/authorizer/webhook/webhook.go): each
// request's attributes go to a remote service as a SubjectAccessReview; allowed wins, denied denies,
// anything else has no opinion. Answers are cached by the review's spec, allowed ones for the
// authorized TTL and the others for the unauthorized TTL. A failed call is retried when kube would
// retry it (util/webhook DefaultShouldRetry), then the authorizer decides as its failure policy says
// (NoOpinion for the flags) and reports the error.
import {
  AuthorizerError,
  type AuthorizationAttributes,
  type AuthorizationResult,
  type Authorizer,
  type UserRules,
} from '../../../registry/rest/authorizer.js';
import { postToWebhook, type WebhookResponse, type WebhookTarget } from '../../authn/webhook-client.js';
import type { Logger } from '../../logging/logger.js';
import { errorText } from '../../logging/error-text.js';
import { DecisionCache } from './decision-cache.js';
import {
  subjectAccessReviewBody,
  subjectAccessReviewSpec,
  subjectAccessReviewStatus,
  type SubjectAccessReviewSpecV1,
  type SubjectAccessReviewStatusV1,
  type SubjectAccessReviewVersion,
} from './subject-access-review.js';

/** failurePolicy: what a failed call (or a failed match condition) decides. */
export type AuthorizerFailurePolicy = 'NoOpinion' | 'Deny';

/** The match conditions of a webhook: true calls it, false skips it, a thrown error is a failure. */
export type MatchConditions = (spec: SubjectAccessReviewSpecV1) => boolean;

export interface WebhookAuthorizerOptions {
  readonly target: WebhookTarget;
  readonly version: SubjectAccessReviewVersion;
  readonly authorizedTTLMs: number;
  readonly unauthorizedTTLMs: number;
  /** The client timeout per call (kube: 30s unless the configuration says otherwise). */
  readonly timeoutMs?: number;
  readonly failurePolicy?: AuthorizerFailurePolicy;
  readonly matchConditions?: MatchConditions;
  readonly logger?: Logger;
  /** Milliseconds; injected so tests move time. */
  readonly now?: () => number;
  /** Waits between retries; injected so tests need not wait. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** kube's cache size and the limit on requester-controlled attribute length for caching. */
const cacheSize = 8192;
const maxControlledAttrCacheSize = 10_000;

/** DefaultAuthWebhookRetryBackoff: 500ms, ×1.5, 20% jitter, five attempts. */
const backoff = { initialMs: 500, factor: 1.5, jitter: 0.2, steps: 5 } as const;

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

/** A call that got an answer outside 2xx: retried when kube's DefaultShouldRetry would. */
class WebhookStatusError extends Error {
  readonly retriable: boolean;
  constructor(res: WebhookResponse) {
    super(`the server responded with the status code ${res.statusCode}`);
    const code = res.statusCode;
    this.retriable =
      code === 500 || code === 504 || code === 429 || (res.retryAfter !== undefined && code >= 500);
  }
}

// utilnet.IsConnectionReset and IsHTTP2ConnectionLost.
const isConnectionReset = (err: unknown): boolean =>
  (err as { code?: unknown } | null)?.code === 'ECONNRESET';

/** shouldCache: overly long requester-controlled attributes are not cached (a DoS guard). */
function shouldCache(a: AuthorizationAttributes): boolean {
  const size =
    (a.namespace ?? '').length +
    a.verb.length +
    (a.apiGroup ?? '').length +
    (a.apiVersion ?? '').length +
    (a.resource ?? '').length +
    (a.subresource ?? '').length +
    (a.name ?? '').length +
    (a.path ?? '').length;
  return size < maxControlledAttrCacheSize;
}

const noRules: UserRules = {
  resourceRules: [],
  nonResourceRules: [],
  incomplete: true,
  evaluationError: 'webhook authorizer does not support user rule resolution',
};

export class WebhookAuthorizer implements Authorizer {
  readonly #opts: WebhookAuthorizerOptions;
  readonly #cache: DecisionCache<SubjectAccessReviewStatusV1>;

  constructor(opts: WebhookAuthorizerOptions) {
    this.#opts = opts;
    this.#cache = new DecisionCache({ max: cacheSize, now: opts.now ?? Date.now });
  }

  readonly authorize = async (attrs: AuthorizationAttributes): Promise<AuthorizationResult> => {
    const spec = subjectAccessReviewSpec(attrs);
    if (this.#opts.matchConditions !== undefined) {
      let matches: boolean;
      try {
        matches = this.#opts.matchConditions(spec);
      } catch (err) {
        throw this.#failure(err);
      }
      if (!matches) return { decision: 'NoOpinion', reason: '' };
    }
    // kube keys its cache on the marshalled spec.
    const key = JSON.stringify(spec);
    let status = this.#cache.get(key);
    if (status === undefined) {
      try {
        status = await this.#reviewWithRetries(spec);
      } catch (err) {
        this.#opts.logger?.error('Failed to make webhook authorizer request', err);
        throw this.#failure(err);
      }
      if (shouldCache(attrs)) {
        const ttl = status.allowed ? this.#opts.authorizedTTLMs : this.#opts.unauthorizedTTLMs;
        this.#cache.add(key, status, ttl);
      }
    }
    if (status.denied && status.allowed)
      throw new AuthorizerError(['webhook subject access review returned both allow and deny response'], {
        decision: 'Deny',
        reason: status.reason,
      });
    if (status.denied) return { decision: 'Deny', reason: status.reason };
    if (status.allowed) return { decision: 'Allow', reason: status.reason };
    return { decision: 'NoOpinion', reason: status.reason };
  };

  /** kube's webhook RulesFor: no rules, incomplete, with its error. */
  readonly rulesFor = (): Promise<UserRules> => Promise.resolve(noRules);

  #failure(err: unknown): AuthorizerError {
    return new AuthorizerError([err], { decision: this.#opts.failurePolicy ?? 'NoOpinion' });
  }

  async #reviewWithRetries(spec: SubjectAccessReviewSpecV1): Promise<SubjectAccessReviewStatusV1> {
    const sleep = this.#opts.sleep ?? defaultSleep;
    const body = subjectAccessReviewBody(spec, this.#opts.version);
    let delay: number = backoff.initialMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#review(body);
      } catch (err) {
        const retriable = (err instanceof WebhookStatusError && err.retriable) || isConnectionReset(err);
        if (!retriable || attempt === backoff.steps) {
          if (err instanceof WebhookStatusError || err instanceof SyntaxError) throw err;
          throw new Error(`Post "${this.#opts.target.server}": ${errorText(err)}`);
        }
      }
      await sleep(delay * (1 + Math.random() * backoff.jitter));
      delay *= backoff.factor;
    }
  }

  async #review(body: string): Promise<SubjectAccessReviewStatusV1> {
    const res = await postToWebhook(this.#opts.target, {
      body,
      ...(this.#opts.timeoutMs === undefined ? {} : { timeoutMs: this.#opts.timeoutMs }),
    });
    if (res.statusCode < 200 || res.statusCode > 299) throw new WebhookStatusError(res);
    return subjectAccessReviewStatus(res.text);
  }
}
