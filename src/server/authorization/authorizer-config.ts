// The authorizer chain as configured (kube's AuthorizationConfiguration.Authorizers): built from
// --authorization-mode and the --authorization-webhook-* flags (options/authorization.go
// buildAuthorizationConfiguration), or read from --authorization-config. Webhook kubeconfig files
// are read here, once, when the options complete.
import { loadWebhookTarget, type WebhookTarget } from '../authn/webhook-client.js';
import type { Logger } from '../logging/logger.js';
import type { AuthorizationOptions } from '../options/authorization-options.js';
import type { Authorizer } from '../../registry/rest/authorizer.js';
import { modeWebhook } from './modes.js';
import {
  isSubjectAccessReviewVersion,
  unsupportedVersionError,
  type SubjectAccessReviewVersion,
} from './webhook/subject-access-review.js';
import {
  WebhookAuthorizer,
  type AuthorizerFailurePolicy,
  type MatchConditions,
} from './webhook/webhook-authorizer.js';

/** One webhook of the chain, its kubeconfig read. */
export interface WebhookAuthorizerConfig {
  readonly name: string;
  readonly target: WebhookTarget;
  readonly version: SubjectAccessReviewVersion;
  readonly authorizedTTLMs: number;
  readonly unauthorizedTTLMs: number;
  readonly timeoutMs: number;
  readonly failurePolicy: AuthorizerFailurePolicy;
  /** Compiled matchConditions (absent: every request goes to the webhook). */
  readonly matchConditions?: MatchConditions;
}

/** One authorizer of the chain: a mode, and for a Webhook its settings. */
export interface AuthorizerConfig {
  readonly type: string;
  readonly name: string;
  readonly webhook?: WebhookAuthorizerConfig;
}

/** The chain the options describe: its modes in order, and the configured authorizers. */
export interface LoadedAuthorization {
  readonly modes: readonly string[];
  readonly authorizers: readonly AuthorizerConfig[];
}

/** kube's defaultWebhookName and the timeout the flags imply. */
const defaultWebhookName = 'default';
const flagWebhookTimeoutMs = 30_000;

/** buildAuthorizationConfiguration: the flags as a chain, the webhook named "default". */
export async function authorizationFromFlags(
  modes: readonly string[],
  o: AuthorizationOptions,
): Promise<LoadedAuthorization> {
  const authorizers: AuthorizerConfig[] = [];
  for (const mode of modes) {
    if (mode !== modeWebhook) {
      authorizers.push({ type: mode, name: mode.toLowerCase() });
      continue;
    }
    // webhook.New's check, made when the authorizer is built.
    if (!isSubjectAccessReviewVersion(o.webhookVersion))
      throw new Error(unsupportedVersionError(o.webhookVersion));
    const target = await loadWebhookTarget(o.webhookConfigFile);
    authorizers.push({
      type: mode,
      name: defaultWebhookName,
      webhook: {
        name: defaultWebhookName,
        target,
        version: o.webhookVersion,
        authorizedTTLMs: o.webhookCacheAuthorizedTTLMs,
        unauthorizedTTLMs: o.webhookCacheUnauthorizedTTLMs,
        timeoutMs: flagWebhookTimeoutMs,
        failurePolicy: 'NoOpinion',
      },
    });
  }
  return { modes, authorizers };
}

/** The webhook authorizers of the chain, in order (authorizerForChain takes them one per Webhook mode). */
export function webhookAuthorizersOf(
  authorizers: readonly AuthorizerConfig[],
  opts: { readonly logger?: Logger; readonly now?: () => number } = {},
): Authorizer[] {
  return authorizers.flatMap((a) =>
    a.webhook === undefined
      ? []
      : [
          new WebhookAuthorizer({
            target: a.webhook.target,
            version: a.webhook.version,
            authorizedTTLMs: a.webhook.authorizedTTLMs,
            unauthorizedTTLMs: a.webhook.unauthorizedTTLMs,
            timeoutMs: a.webhook.timeoutMs,
            failurePolicy: a.webhook.failurePolicy,
            ...(a.webhook.matchConditions === undefined
              ? {}
              : { matchConditions: a.webhook.matchConditions }),
            ...(opts.logger === undefined ? {} : { logger: opts.logger }),
            ...(opts.now === undefined ? {} : { now: opts.now }),
          }),
        ],
  );
}
