// RFC 7386 JSON merge patch as evanphx/json-patch's MergePatch applies it for kube.
import type { KubeObject } from '../../api/meta.js';
import { newBadRequest } from '../../machinery/errors/index.js';
import { copyAsJSON } from '../../machinery/json/copy-as-json.js';
import { memberOf, setMember } from '../../machinery/json/set-member.js';
import { goJSONTypeName } from '../request/go-json.js';
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

function mergeDocs(doc: JSONObject, patch: JSONObject): void {
  for (const [k, v] of Object.entries(patch)) {
    const cur = memberOf(doc, k);
    if (v === null) Reflect.deleteProperty(doc, k);
    else if (cur === undefined || cur === null || !isObject(cur)) setMember(doc, k, pruneNulls(v));
    else if (!isObject(v))
      setMember(doc, k, copyAsJSON(v)); // a retry applies the patch again
    else mergeDocs(cur, v);
  }
}

/**
 * Merges `patch` into a copy of `target`; a non-object patch replaces it. The result shares nothing
 * with either, and is what JSON.parse would give (undefined members dropped).
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return pruneNulls(patch);
  if (!isObject(target)) return pruneNulls(patch);
  const doc = copyAsJSON(target) as JSONObject;
  mergeDocs(doc, patch);
  return doc;
}

const badPatch = (): Error => newBadRequest('Invalid JSON Patch');

export const mergePatchMechanism: PatchMechanism = {
  prepare(input: PatchInput): unknown {
    const parsed = parseGoJSON(input.patch.toString('utf8'), input.patch);
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
    return value;
  },
  apply(prepared: unknown, current: KubeObject): string {
    return JSON.stringify(mergePatch(current, prepared));
  },
  applyObject: (prepared: unknown, current: KubeObject): unknown => mergePatch(current, prepared),
  // A patch object whose metadata, if any, is an object without managedFields merges around them.
  keepsManagedFields: (prepared: unknown): boolean =>
    isObject(prepared) &&
    (!Object.hasOwn(prepared, 'metadata') ||
      (isObject(prepared['metadata']) && !Object.hasOwn(prepared['metadata'], 'managedFields'))),
};
