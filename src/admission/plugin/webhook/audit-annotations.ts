// What the webhook plugins write into the request's audit event (kube's webhookAnnotator in the
// mutating dispatcher, and the validating dispatcher's failed-open key): for each mutating webhook
// called, whether it changed the object; the JSON patch it sent (only at level Request and above:
// the patch may carry the object's content); the webhooks whose failure was ignored. Keys carry the
// round (1 when the chain is reinvoked) and the webhook's index: in the configured list for a
// mutating webhook, among the webhooks called for a validating one. Values are Go's JSON text.
import { goJSONText } from '../../../machinery/json/go-json-text.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { WebhookAccessor } from './accessor.js';

const mutationPrefix = 'mutation.webhook.admission.k8s.io/';
const patchPrefix = 'patch.webhook.admission.k8s.io/';
const mutationFailedOpenPrefix = `failed-open.${mutationPrefix}`;
const validatingFailedOpenPrefix = 'failed-open.validating.webhook.admission.k8s.io/';

/** Where a webhook call stands: its round and its index. */
export interface CallPosition {
  readonly round: number;
  readonly index: number;
}

const suffix = (at: CallPosition): string => `round_${String(at.round)}_index_${String(at.index)}`;

/** MutationAuditAnnotation: set for every mutating webhook called, whatever came of the call. */
export function annotateMutation(
  ctx: RequestContext,
  hook: WebhookAccessor,
  r: CallPosition & { readonly mutated: boolean },
): void {
  ctx.addAuditAnnotation?.(
    `${mutationPrefix}${suffix(r)}`,
    goJSONText({ configuration: hook.configurationName, webhook: hook.name, mutated: r.mutated }),
  );
}

/** A JSON Patch operation as jsonpatch.Operation marshals: a Go map, its keys sorted. */
function sortedOperation(op: object): Record<string, unknown> {
  const entries = Object.entries(op).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries);
}

/** PatchAuditAnnotation: the patch a mutating webhook's answer carried, once applied. */
export function annotatePatch(
  ctx: RequestContext,
  hook: WebhookAccessor,
  r: CallPosition & { readonly ops: readonly object[] },
): void {
  const value = goJSONText({
    configuration: hook.configurationName,
    webhook: hook.name,
    patch: r.ops.map(sortedOperation),
    patchType: 'JSONPatch',
  });
  ctx.addAuditAnnotation?.(`${patchPrefix}${suffix(r)}`, value, 'Request');
}

/** A webhook whose failure its failurePolicy Ignore let pass; the value is its name. */
export function annotateFailedOpen(
  ctx: RequestContext,
  hook: WebhookAccessor,
  r: CallPosition & { readonly mutating: boolean },
): void {
  const prefix = r.mutating ? mutationFailedOpenPrefix : validatingFailedOpenPrefix;
  ctx.addAuditAnnotation?.(`${prefix}${suffix(r)}`, hook.name);
}
