// RFC 6902 JSON patch (kube's jsonPatcher with evanphx/json-patch v4): the operations are checked
// as kube decodes them, applied by the library's rules (src/machinery/patch/json-patch), and any
// failure to apply is kube's generic 422, which keeps the library's message to itself.
import type { KubeObject } from '../../api/meta.js';
import { newBadRequest, newRequestEntityTooLarge, statusError } from '../../machinery/errors/index.js';
import {
  applyJSONPatch,
  applyJSONPatchWithText,
  decodeJSONPatchText,
  JSONPatchError,
  type JSONPatchOperation,
} from '../../machinery/patch/json-patch/json-patch.js';
import { scanText } from '../../machinery/structural/duplicate-scan.js';
import { goJSONTypeName } from '../../machinery/json/go-json-syntax.js';
import { inGoOrder } from '../responsewriters/go-order.js';
import { parseGoJSON } from '../request/parse-go-json.js';
import type { PatchInput, PatchMechanism } from './patch-mechanism.js';

const maxJSONPatchOperations = 10000;

function strictCheck(value: unknown): void {
  const fail = (detail: string): never => {
    throw newBadRequest(`error decoding patch: json: cannot unmarshal ${detail}`);
  };
  if (value === null) return;
  if (!Array.isArray(value)) fail(`${goJSONTypeName(value)} into Go value of type []handlers.jsonPatchOp`);
  for (const op of value as unknown[]) {
    if (op === null) continue;
    if (typeof op !== 'object' || Array.isArray(op))
      fail(`${goJSONTypeName(op)} into Go value of type handlers.jsonPatchOp`);
    for (const field of ['op', 'path', 'from']) {
      const v = (op as Record<string, unknown>)[field];
      if (v !== undefined && v !== null && typeof v !== 'string') {
        fail(`${goJSONTypeName(v)} into Go struct field jsonPatchOp.${field} of type string`);
      }
    }
  }
}

// jsonpatch.DecodePatch: an array of objects; how many.
function checkDecodable(value: unknown): number {
  if (value === null) return 0;
  if (!Array.isArray(value)) {
    throw newBadRequest(
      `json: cannot unmarshal ${goJSONTypeName(value)} into Go value of type jsonpatch.Patch`,
    );
  }
  for (const op of value as unknown[]) {
    if (op !== null && (typeof op !== 'object' || Array.isArray(op))) {
      throw newBadRequest(
        `json: cannot unmarshal ${goJSONTypeName(op)} into Go value of type jsonpatch.Operation`,
      );
    }
  }
  return (value as unknown[]).length;
}

function unprocessable(): Error {
  return statusError({
    reason: 'Invalid',
    message: 'the server rejected our request due to an error in our request',
    details: {},
  });
}

interface Prepared {
  readonly ops: readonly JSONPatchOperation[];
  /** Some value of the patch has a number with a fraction or an exponent. */
  readonly numbers: boolean;
}

// The patched object, fresh. As kube's jsonPatcher, the operations apply to the current object's
// JSON encoding: a built-in object's zero members Go writes (a template's "creationTimestamp":null)
// are there to test or remove. Keys are map keys, whatever their names (`__proto__`, `constructor`).
function patched(prepared: unknown, current: KubeObject): unknown {
  try {
    return applyJSONPatch(inGoOrder(current), (prepared as Prepared).ops);
  } catch (err) {
    if (err instanceof JSONPatchError) throw unprocessable();
    throw err;
  }
}

export const jsonPatchMechanism: PatchMechanism = {
  prepare(input: PatchInput): Prepared {
    const text = input.patch.toString('utf8');
    const parsed = parseGoJSON(text, input.patch);
    const strict = input.fieldValidation !== 'Ignore';
    if (!parsed.ok) throw newBadRequest(strict ? `error decoding patch: ${parsed.error}` : parsed.error);
    const value = parsed.value;
    if (strict) strictCheck(value);
    const count = checkDecodable(value);
    if (count > maxJSONPatchOperations) {
      throw newRequestEntityTooLarge(
        `The allowed maximum operations in a JSON patch is ${maxJSONPatchOperations}, got ${count}`,
      );
    }
    return { ops: decodeJSONPatchText(text), numbers: scanText(text).fractionOrExponent };
  },
  apply: (prepared: unknown, current: KubeObject): string => JSON.stringify(patched(prepared, current)),
  applyObject: (prepared: unknown, current: KubeObject): unknown => patched(prepared, current),
  // The library's own text of the result, where the patch's values keep their text. Only asked
  // for after applyObject succeeded on the same inputs; it applies the patch a second time, which
  // only a patch with such a number pays for.
  numberText: (prepared: unknown, current: KubeObject): string | undefined => {
    const { ops, numbers } = prepared as Prepared;
    return numbers ? applyJSONPatchWithText(inGoOrder(current), ops).text : undefined;
  },
};
