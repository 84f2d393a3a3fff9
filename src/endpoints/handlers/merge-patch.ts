// RFC 7386 JSON merge patch as evanphx/json-patch's MergePatch applies it for kube.
import type { KubeObject } from '../../api/meta.js';
import { newBadRequest } from '../../machinery/errors/index.js';
import { copyAsJSON, copyAsJSONNotingShared } from '../../machinery/json/copy-as-json.js';
import { memberOf, setMember } from '../../machinery/json/set-member.js';
import { scanText } from '../../machinery/structural/duplicate-scan.js';
import { goJSONTypeName } from '../../machinery/json/go-json-syntax.js';
import { parseGoJSON } from '../request/parse-go-json.js';
import type { PatchInput, PatchMechanism } from './patch-mechanism.js';

type JSONObject = Record<string, unknown>;
const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Removes null members from objects, recursively (arrays keep their null elements). */
function pruneNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(pruneNulls);
  if (!isObject(v)) return copyAsJSON(v); // a number as JSON text keeps it: 1e400 is null
  const out: JSONObject = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) setMember(out, k, pruneNulls(x));
  return out;
}

/**
 * `doc` with `patch` merged in, sharing the members of `doc` the patch does not name; a member it
 * names is built anew, down to what it sets. Neither input changes.
 */
function mergedSharing(doc: JSONObject, patch: JSONObject): JSONObject {
  const out: JSONObject = {};
  for (const k in doc) if (Object.hasOwn(doc, k)) setMember(out, k, doc[k]);
  for (const [k, v] of Object.entries(patch)) {
    const cur = memberOf(doc, k);
    if (v === null) Reflect.deleteProperty(out, k);
    else if (cur === undefined || cur === null || !isObject(cur)) setMember(out, k, pruneNulls(v));
    // Copied with the rest: a retry applies the patch again.
    else if (!isObject(v)) setMember(out, k, v);
    else setMember(out, k, mergedSharing(cur, v));
  }
  return out;
}

/**
 * Merges `patch` into a copy of `target`; a non-object patch replaces it. The result shares nothing
 * with either, and is what JSON.parse would give (undefined members dropped). Into `shared` go the
 * parts of it that are copies of the target's own, where the patch did not reach.
 */
export function mergePatch(target: unknown, patch: unknown, shared?: WeakSet<object>): unknown {
  if (!isObject(patch)) return pruneNulls(patch);
  if (!isObject(target)) return pruneNulls(patch);
  const merged = mergedSharing(target, patch);
  return shared === undefined ? copyAsJSON(merged) : copyAsJSONNotingShared(merged, target, shared);
}

const badPatch = (): Error => newBadRequest('Invalid JSON Patch');

/** A merge patch's value, and its text when it writes a number Go reads from its text. */
interface Prepared {
  readonly value: unknown;
  readonly numberText: string | undefined;
}

export const mergePatchMechanism: PatchMechanism = {
  prepare(input: PatchInput): Prepared {
    const text = input.patch.toString('utf8');
    const parsed = parseGoJSON(text, input.patch);
    const strict = input.fieldValidation !== 'Ignore';
    if (!parsed.ok) throw strict ? newBadRequest(`error decoding patch: ${parsed.error}`) : badPatch();
    const value = parsed.value;
    if (strict && value !== null && !isObject(value)) {
      throw newBadRequest(
        `error decoding patch: json: cannot unmarshal ${goJSONTypeName(value)} into Go value of type map[string]interface {}`,
      );
    }
    // MergePatch takes an object, or an array that replaces the document; nothing else.
    if (!isObject(value) && !Array.isArray(value)) throw badPatch();
    return { value, numberText: scanText(text).fractionOrExponent ? text : undefined };
  },
  apply(prepared: unknown, current: KubeObject): string {
    return JSON.stringify(mergePatch(current, (prepared as Prepared).value));
  },
  applyObject: (prepared: unknown, current: KubeObject, shared: WeakSet<object>): unknown =>
    mergePatch(current, (prepared as Prepared).value, shared),
  // What the patch sets lands at the path it has in the patch, its number text kept by
  // evanphx/json-patch's merge (a patch's members are json.RawMessage until merged into).
  numberText: (prepared: unknown): string | undefined => (prepared as Prepared).numberText,
  // A patch object whose metadata, if any, is an object without managedFields merges around them.
  keepsManagedFields: (prepared: unknown): boolean => {
    const value = (prepared as Prepared).value;
    return (
      isObject(value) &&
      (!Object.hasOwn(value, 'metadata') ||
        (isObject(value['metadata']) && !Object.hasOwn(value['metadata'], 'managedFields')))
    );
  },
};
