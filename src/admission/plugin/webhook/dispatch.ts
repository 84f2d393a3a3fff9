// What both webhook plugins share (kube's generic.Webhook): the hooks to call for a request, found
// in order, and how a failed call becomes the request's error under the failure policy.
import {
  isStatusError,
  newForbidden,
  newInternalError,
  newTimeoutError,
  type StatusError,
} from '../../../machinery/errors/index.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import type { WebhookAccessor } from './accessor.js';
import { CallingWebhookError, WebhookRejection } from './errors.js';
import type { Invocation } from './review.js';
import { isExemptAdmissionConfigurationResource } from './rules.js';
import { anyRuleMatches, matchesAnyRule, shouldCallHook, type MatchDeps } from './should-call.js';
import type { WebhookSource } from './source.js';
import type { VersionedObjects } from './versioned.js';

/** kube's WaitForReady: how long a request waits for the first list of configurations. */
const readyTimeoutMs = 10_000;

export interface WebhookPluginOptions extends MatchDeps {
  readonly source: WebhookSource;
  readonly onError?: ((message: string, err: unknown) => void) | undefined;
}

/**
 * The source's webhooks once it has listed (Forbidden when it has not within the wait); none when
 * no webhook's rules cover the request, so an unwatched kind costs one walk over the rules.
 */
export async function webhooksFor(source: WebhookSource, a: Attributes): Promise<readonly WebhookAccessor[]> {
  if (isExemptAdmissionConfigurationResource(a)) return [];
  if (!source.synced) {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => {
        resolve(true);
      }, readyTimeoutMs);
    });
    const ready = await Promise.race([source.ready().then(() => false), timedOut]);
    clearTimeout(timer);
    if (ready)
      throw newForbidden(
        { group: a.resource.group, resource: a.resource.resource },
        a.name,
        'not yet ready to handle request',
      );
  }
  return anyRuleMatches(source.webhooks, a) ? source.webhooks : [];
}

/** True while the plugin may have work: before the first list, or when any webhook exists. */
export function mayHaveWebhooks(source: WebhookSource): boolean {
  return !source.synced || source.webhooks.length > 0;
}

export interface Call {
  readonly hook: WebhookAccessor;
  readonly invocation: Invocation;
  readonly versioned: VersionedObjects;
}

/** The webhooks to call, in order; the first matching error (a namespace lookup…) is thrown. */
export async function relevantHooks(
  ctx: RequestContext,
  hooks: readonly WebhookAccessor[],
  opts: { attributes: Attributes; deps: MatchDeps },
): Promise<Call[]> {
  const calls: Call[] = [];
  for (const hook of hooks) {
    if (!matchesAnyRule(hook, opts.attributes)) continue;
    const should = await shouldCallHook(ctx, hook, opts);
    if ('error' in should) throw should.error;
    if (should.call) calls.push({ hook, invocation: should.invocation, versioned: should.versioned });
  }
  return calls;
}

/**
 * The error a failed call makes of the request; undefined when the failure policy ignores it. A
 * webhook's denial is its status; a call that failed is an InternalError unless ignored.
 */
export function requestError(
  ctx: RequestContext,
  hook: WebhookAccessor,
  opts: { err: unknown; onError?: WebhookPluginOptions['onError'] },
): StatusError | undefined {
  const { err } = opts;
  if (err instanceof CallingWebhookError) {
    if (hook.failurePolicy === 'Ignore') {
      opts.onError?.(`Failed calling webhook, failing open ${hook.name}`, err);
      return undefined;
    }
    opts.onError?.(`Failed calling webhook, failing closed ${hook.name}`, err);
    return newInternalError(err);
  }
  if (err instanceof WebhookRejection) return err.status;
  if (isStatusError(err)) return err;
  if (ctx.signal.aborted) return newTimeoutError('request did not complete within requested timeout', 0);
  return newInternalError(err);
}
