// Value shapes as strategic merge patch tells them apart (Go's reflect kinds of decoded JSON).
import { isJSONObject, type JSONObject, type JSONValue } from '../json.js';
import { errNoListOfLists, StrategicMergeError } from './errors.js';
import { goValueString } from '../go-value.js';
import { setMember } from '../../json/set-member.js';

export const directiveMarker = '$patch';
export const retainKeysDirective = '$retainKeys';
export const deleteFromPrimitiveListPrefix = '$deleteFromPrimitiveList';
export const setElementOrderPrefix = '$setElementOrder';

export const isMap = (v: unknown): v is JSONObject => isJSONObject(v);

/** reflect.Kind of a decoded value: map, slice, or the scalar's own type. */
export function kindOf(v: JSONValue): string {
  if (Array.isArray(v)) return 'slice';
  if (isMap(v)) return 'map';
  if (v === null) return 'nil';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return typeof v;
}

/** sliceElementType: the one kind all items of the lists share; lists of lists are refused. */
export function sliceElementKind(...lists: readonly (readonly JSONValue[])[]): string {
  let kind: string | undefined;
  for (const list of lists) {
    for (const v of list) {
      const k = kindOf(v);
      if (kind === undefined) {
        if (k === 'slice') throw errNoListOfLists();
        kind = k;
      } else if (kind !== k) {
        throw new StrategicMergeError(
          `list element types are not identical: [${lists.map((l) => goValueString(l)).join(' ')}]`,
        );
      }
    }
  }
  if (kind === undefined) throw new StrategicMergeError('no elements in any of the given slices');
  return kind;
}

/** removeDirectives: a value as it enters the object, without `$patch` maps. */
export function removeDirectives(v: JSONValue): { value: JSONValue; keep: boolean } {
  if (Array.isArray(v)) {
    const out: JSONValue[] = [];
    for (const item of v) {
      const r = removeDirectives(item);
      if (r.keep) out.push(r.value);
    }
    return { value: out, keep: true };
  }
  if (!isMap(v)) return { value: v, keep: true };
  if (Object.hasOwn(v, directiveMarker)) return { value: null, keep: false };
  const out: JSONObject = {};
  for (const [k, x] of Object.entries(v)) {
    const r = removeDirectives(x);
    if (r.keep) setMember(out, k, r.value);
  }
  return { value: out, keep: true };
}

/** discardNullValuesFromPatch. */
export function discardNulls(v: JSONValue): JSONValue {
  if (Array.isArray(v)) return v.map(discardNulls);
  if (!isMap(v)) return v;
  const out: JSONObject = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) setMember(out, k, discardNulls(x));
  return out;
}

/** extractKey: the field a `$deleteFromPrimitiveList/x` or `$setElementOrder/x` key names. */
export function directiveTarget(key: string, prefix: string, onError: () => Error): string {
  const idx = key.indexOf('/');
  if (idx < 0 || key.slice(0, idx) !== prefix) throw onError();
  return key.slice(idx + 1);
}
