// How a patch body turns the current object into the new one (kube's patchMechanism). JSON and
// merge patches live here; strategic merge and apply plug in through HandlerConfig.
import type { KubeObject } from '../../api/meta.js';
import type { GroupVersionKind } from '../../machinery/schema/group-resource.js';
import type { FieldValidation } from '../../registry/rest/options.js';

/** The request a patch comes with: its route's kind and subresource, its manager and `force`. */
export interface PatchContext {
  readonly kind: GroupVersionKind;
  readonly subresource: string;
  /** The fieldManager parameter, or the name derived from the user agent. */
  readonly fieldManager: string;
  readonly force: boolean;
  readonly addWarning: (message: string) => void;
}

export interface PatchInput {
  readonly patch: Buffer;
  readonly fieldValidation: FieldValidation;
  readonly context?: PatchContext;
}

export interface PatchMechanism {
  /** Checks the patch body before any object is read; throws the Status error kube gives. */
  prepare(input: PatchInput): unknown;
  /** The JSON of the patched object, from the prepared patch and the current object. */
  apply(prepared: unknown, current: KubeObject): string;
  /**
   * The patched object itself, as JSON.parse would give apply's text back: fresh, sharing nothing
   * with `prepared` or `current`. Spares the handler the text; on a failure to decode it asks
   * describe or apply for the text to quote, so both must give what they gave before. Into
   * `shared` go the parts of it that are copies of `current`'s own, at the same paths, where the
   * patch left them: the handler's decode takes those as decoded, as `current` was. (Apply and
   * the merge patch note them; the JSON and strategic merge patches copy `current` before
   * patching it, so nothing is `current`'s own to note.)
   */
  applyObject?(prepared: unknown, current: KubeObject, shared: WeakSet<object>): unknown;
  /**
   * A JSON text with the patched object's numbers that the patch wrote with a fraction or an
   * exponent, as written and at the paths the patched object has them; undefined when it wrote
   * none. kube's json-patch library keeps a patch's values as text, which its decoder reads
   * (ParseInt refuses `1.0`, a Quantity keeps `1e3`); the handler gives those numbers to the
   * decode as written (number-literal.ts).
   */
  numberText?(prepared: unknown, current: KubeObject): string | undefined;
  /** Whether the kind takes this patch type; the handler answers 415 otherwise (default: yes). */
  supports?(kind: GroupVersionKind): boolean;
  /** The text kube quotes as the invalid `patch` value when the result does not decode. */
  describe?(prepared: unknown): string;
  /**
   * Whether applying `prepared` leaves the current object's metadata.managedFields as they are (it
   * names neither them nor a change of metadata as a whole): the handler then patches the object
   * without them and puts the live entries back, sparing their copy and decode (default: no).
   */
  keepsManagedFields?(prepared: unknown): boolean;
  /** Set when the mechanism maintains managedFields itself (apply); the handler skips its update. */
  readonly managesFields?: boolean;
}
