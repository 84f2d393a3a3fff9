// The JSON Patch a mutating webhook answers, decoded and applied as kube's mutating dispatcher does
// with evanphx/json-patch v4 (jsonpatch.DecodePatch, then Patch.Apply to the object's JSON
// encoding): the library's rules and messages are src/machinery/patch/json-patch's. The object
// given is left as it was.
import {
  applyJSONPatchWithText,
  decodeJSONPatchText,
  type JSONPatchOperation,
} from '../../../machinery/patch/json-patch/json-patch.js';

/** A webhook's patch: its operations decoded (for the audit annotation) and as the library reads them. */
export interface WebhookJSONPatch {
  readonly operations: readonly object[];
  readonly decoded: readonly JSONPatchOperation[];
}

/** The operations of a patch document; throws json.Unmarshal's message when it is no array of objects. */
export function decodeJSONPatch(raw: Buffer): WebhookJSONPatch {
  const text = raw.toString('utf8');
  const parsed: unknown = JSON.parse(text);
  const decoded = decodeJSONPatchText(text);
  // A null operation fails when applied ("Unexpected kind: unknown"), before any audit sees it.
  return { operations: parsed === null ? [] : (parsed as object[]), decoded };
}

/**
 * The document with the operations applied, in order (`doc` itself is not changed), and the
 * library's text of the result, which kube decodes: the patch's values as the webhook wrote them
 * (an integer field's `1.0` refused, a Quantity's `1e3` kept).
 */
export function applyWebhookPatchWithText(
  doc: unknown,
  patch: WebhookJSONPatch,
): { readonly value: unknown; readonly text: string } {
  return applyJSONPatchWithText(doc, patch.decoded);
}
