// Applying a strategic merge patch to a map (strategicpatch/patch.go mergeMap), with the
// directives `$patch`, `$retainKeys`, `$setElementOrder/<list>` and `$deleteFromPrimitiveList/<list>`.
import type { JSONObject, JSONValue } from '../json.js';
import { normalizeElementOrder } from './element-order.js';
import {
  errBadArgType,
  errBadPatchFormatForPrimitiveList,
  errBadPatchFormatForRetainKeys,
  errBadPatchFormatForSetElementOrderList,
  errBadPatchType,
} from './errors.js';
import { mergeSlice } from './merge-list.js';
import { lookupField, lookupSlice, type SchemaPosition } from './patch-meta.js';
import { validateSetElementOrder } from './set-element-order.js';
import {
  deleteFromPrimitiveListPrefix,
  directiveMarker,
  directiveTarget,
  discardNulls,
  isMap,
  kindOf,
  removeDirectives,
  retainKeysDirective,
  setElementOrderPrefix,
} from './values.js';
import { memberOf, setMember } from '../../json/set-member.js';

function handleDirective(directive: JSONValue, patch: JSONObject): JSONObject {
  if (directive === 'replace') {
    const out = { ...patch };
    Reflect.deleteProperty(out, directiveMarker);
    return out;
  }
  if (directive === 'delete') return {};
  throw errBadPatchType(directive, patch);
}

function applyRetainKeys(original: JSONObject, patch: JSONObject): void {
  if (!Object.hasOwn(patch, retainKeysDirective)) return;
  const list = patch[retainKeysDirective];
  Reflect.deleteProperty(patch, retainKeysDirective);
  if (!Array.isArray(list)) throw errBadPatchFormatForRetainKeys();
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(deleteFromPrimitiveListPrefix) || k.startsWith(setElementOrderPrefix))
      continue;
    if (!list.includes(k)) throw errBadPatchFormatForRetainKeys();
  }
  for (const k of Object.keys(original)) if (!list.includes(k)) Reflect.deleteProperty(original, k);
}

/** mergePatchIntoOriginal: merges each list a `$setElementOrder` names and puts it in that order. */
function applySetElementOrders(original: JSONObject, patch: JSONObject, pos: SchemaPosition): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(setElementOrderPrefix)) continue;
    const order = patch[key];
    Reflect.deleteProperty(patch, key);
    if (!Array.isArray(order)) throw errBadArgType('slice', order);
    const target = directiveTarget(key, setElementOrderPrefix, errBadPatchFormatForSetElementOrderList);
    const orig = original[target];
    const list = patch[target];
    if (orig !== undefined && !Array.isArray(orig)) throw errBadArgType('slice', orig);
    if (list !== undefined && !Array.isArray(list)) throw errBadArgType('slice', list);
    const { pos: itemPos, meta } = lookupSlice(pos, target);
    validateSetElementOrder(list ?? [], order, meta.mergeKey);
    if (orig === undefined && list === undefined) continue;
    let merged: JSONValue[];
    if (orig === undefined) merged = list ?? [];
    else if (list === undefined) merged = orig;
    else
      merged =
        meta.strategy === 'merge'
          ? mergeSlice(orig, list, { pos: itemPos, mergeKey: meta.mergeKey, isDeleteList: false, mergeMap })
          : list;
    original[target] = normalizeElementOrder(merged, {
      patchOrder: order,
      serverOrder: orig ?? [],
      mergeKey: meta.mergeKey,
    });
    Reflect.deleteProperty(patch, target);
  }
}

function setValue(original: JSONObject, key: string, patchV: JSONValue): void {
  const { value, keep } = removeDirectives(discardNulls(patchV));
  if (keep) setMember(original, key, value);
  else Reflect.deleteProperty(original, key);
}

/** Merges one member of the patch into the original (the loop body of mergeMap). */
function mergeMember(
  original: JSONObject,
  entry: { key: string; patchV: JSONValue },
  pos: SchemaPosition,
): void {
  let k = entry.key;
  const { patchV } = entry;
  const isDeleteList = k.startsWith(deleteFromPrimitiveListPrefix);
  if (isDeleteList) k = directiveTarget(k, deleteFromPrimitiveListPrefix, errBadPatchFormatForPrimitiveList);
  if (patchV === null) {
    Reflect.deleteProperty(original, k);
    return;
  }
  const current = memberOf(original, k);
  if (current === undefined || kindOf(current) !== kindOf(patchV)) {
    if (!isDeleteList) setValue(original, k, patchV);
    return;
  }
  if (isMap(current) && isMap(patchV)) {
    const { pos: sub, meta } = lookupField(pos, k);
    setMember(original, k, meta.strategy === 'replace' ? patchV : mergeMap(current, patchV, sub));
  } else if (Array.isArray(current) && Array.isArray(patchV)) {
    const { pos: items, meta } = lookupSlice(pos, k);
    setMember(
      original,
      k,
      meta.strategy === 'merge'
        ? mergeSlice(current, patchV, { pos: items, mergeKey: meta.mergeKey, isDeleteList, mergeMap })
        : patchV,
    );
  } else {
    setValue(original, k, patchV);
  }
}

/** mergeMap: the original with the patch merged in; both are consumed. */
export function mergeMap(original: JSONObject, patch: JSONObject, pos: SchemaPosition): JSONObject {
  if (Object.hasOwn(patch, directiveMarker)) return handleDirective(patch[directiveMarker] ?? null, patch);
  applyRetainKeys(original, patch);
  applySetElementOrders(original, patch, pos);
  for (const [key, patchV] of Object.entries(patch)) mergeMember(original, { key, patchV }, pos);
  return original;
}
