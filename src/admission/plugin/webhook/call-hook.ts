// One call of one webhook (callHook / callAttrMutatingHook in kube's validating and mutating
// dispatchers): dry-run side effects refused, the review sent, its answer checked, warnings passed
// on, its audit annotations added to the request's audit event.
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import type { WebhookAccessor } from './accessor.js';
import type { WebhookPoster } from '../../../registry/webhook/client.js';
import { WebhookResponseError } from '../../../registry/webhook/response-error.js';
import type { VersionedObjects } from './versioned.js';
import { CallingWebhookError, newDryRunUnsupportedErr, toStatusErr, WebhookRejection } from './errors.js';
import {
  admissionRequest,
  admissionReview,
  negotiateReviewVersion,
  reviewBody,
  verifyAdmissionResponse,
  type AdmissionResponse,
  type Invocation,
} from './review.js';

const noSideEffects: ReadonlySet<string> = new Set(['None', 'NoneOnDryRun']);

/**
 * The webhook's allowing answer; throws CallingWebhookError (the failure policy decides),
 * WebhookRejection (a denial), or a StatusError (a dry run it cannot take).
 */
export async function callHook(
  ctx: RequestContext,
  hook: WebhookAccessor,
  opts: {
    attributes: Attributes;
    invocation: Invocation;
    /** The objects at the invocation's version. */
    versioned: VersionedObjects;
    client: WebhookPoster;
    mutating: boolean;
  },
): Promise<AdmissionResponse> {
  const a = opts.attributes;
  if (a.dryRun) {
    if (hook.sideEffects === undefined)
      throw new CallingWebhookError(hook.name, 'Webhook SideEffects is nil');
    if (!noSideEffects.has(hook.sideEffects)) throw newDryRunUnsupportedErr(hook.name);
  }
  const version = negotiateReviewVersion(hook.admissionReviewVersions);
  if (version === undefined)
    throw new CallingWebhookError(
      hook.name,
      'could not create admission objects: webhook does not accept known AdmissionReview versions',
    );
  const uid = randomUUID();
  const review = admissionReview(
    version,
    admissionRequest(a, { uid, invocation: opts.invocation, versioned: opts.versioned }),
  );
  let answer: unknown;
  const started = performance.now();
  try {
    answer = await opts.client.post(ctx, {
      clientConfig: hook.clientConfig,
      timeoutSeconds: hook.timeoutSeconds,
      body: reviewBody(review),
    });
  } catch (err) {
    // kube's status of the call: the webhook's own for a non-2xx answer, else a 400.
    const code = err instanceof WebhookResponseError ? err.code : 400;
    throw new CallingWebhookError(hook.name, `failed to call webhook: ${(err as Error).message}`, code);
  } finally {
    // The call, as kube's dispatchers track it: the SLI latency leaves it out.
    ctx.trackWebhookLatency?.({ mutating: opts.mutating, ms: performance.now() - started });
  }
  let response: AdmissionResponse;
  try {
    response = verifyAdmissionResponse(answer, { uid, mutating: opts.mutating, version });
  } catch (err) {
    throw new CallingWebhookError(
      hook.name,
      `received invalid webhook response: ${(err as Error).message}`,
      503,
    );
  }
  // Named for the webhook, whether or not it allowed the request (kube's dispatchers).
  for (const [k, v] of Object.entries(response.auditAnnotations))
    ctx.addAuditAnnotation?.(`${hook.name}/${k}`, v);
  for (const w of response.warnings) ctx.addWarning(w);
  if (!response.allowed) throw new WebhookRejection(toStatusErr(hook.name, response.result));
  return response;
}
