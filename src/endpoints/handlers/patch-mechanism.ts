// How a patch body turns the current object into the new one (kube's patchMechanism). JSON and
// merge patches live here; strategic merge and apply plug in through HandlerConfig.
import type { KubeObject } from '../../api/meta.js';
import type { FieldValidation } from '../../registry/rest/options.js';

export interface PatchInput {
  readonly patch: Buffer;
  readonly fieldValidation: FieldValidation;
}

export interface PatchMechanism {
  /** Checks the patch body before any object is read; throws the Status error kube gives. */
  prepare(input: PatchInput): unknown;
  /** The JSON of the patched object, from the prepared patch and the current object. */
  apply(prepared: unknown, current: KubeObject): string;
}
