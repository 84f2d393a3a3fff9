// Merging lists by strategic merge patch (strategicpatch/patch.go mergeSlice): primitive lists
// take the union (or lose the items of a `$deleteFromPrimitiveList`), lists of maps merge items by
// their merge key, with `$patch: delete` and `$patch: replace` items; then the order is settled.
import type { JSONValue } from '../json.js';
import { normalizeElementOrder } from './element-order.js';
import { errBadPatchType, errNoMergeKey, StrategicMergeError } from './errors.js';
import type { SchemaPosition } from './patch-meta.js';
import { directiveMarker, isMap, sliceElementKind } from './values.js';

/** Merges two maps; provided by merge-map.ts (the two recurse into each other). */
export type MapMerger = (
  original: Record<string, JSONValue>,
  patch: Record<string, JSONValue>,
  pos: SchemaPosition,
) => Record<string, JSONValue>;

export interface SliceMerge {
  readonly pos: SchemaPosition;
  readonly mergeKey: string;
  readonly isDeleteList: boolean;
  readonly mergeMap: MapMerger;
}

function findByKey(list: readonly JSONValue[], mergeKey: string, value: JSONValue | undefined): number {
  return list.findIndex((v, i) => {
    if (!isMap(v)) throw new StrategicMergeError(`value for key ${i} is not a map.`);
    return Object.hasOwn(v, mergeKey) && v[mergeKey] === value;
  });
}

/** Applies `$patch` items: deletes drop matching originals, a replace makes the rest the list. */
function applySpecialElements(
  original: JSONValue[],
  patch: readonly JSONValue[],
  mergeKey: string,
): { original: JSONValue[]; patch: JSONValue[] } {
  const plain: JSONValue[] = [];
  let replace = false;
  let current = original;
  for (const v of patch) {
    if (!isMap(v) || !Object.hasOwn(v, directiveMarker)) {
      plain.push(v);
      continue;
    }
    const directive = v[directiveMarker];
    if (directive === 'delete') {
      if (!Object.hasOwn(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
      const key = v[mergeKey];
      current = current.filter(
        (item) => !(isMap(item) && Object.hasOwn(item, mergeKey) && item[mergeKey] === key),
      );
    } else if (directive === 'replace') {
      replace = true;
    } else if (directive === 'merge') {
      throw new StrategicMergeError('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(directive, v);
    }
  }
  return replace ? { original: plain, patch: [] } : { original: current, patch: plain };
}

function mergeItems(original: JSONValue[], patch: readonly JSONValue[], m: SliceMerge): JSONValue[] {
  const out = [...original];
  for (const v of patch) {
    if (!isMap(v) || !Object.hasOwn(v, m.mergeKey)) throw errNoMergeKey(v, m.mergeKey);
    const at = findByKey(out, m.mergeKey, v[m.mergeKey]);
    const found = out[at];
    if (at >= 0 && isMap(found)) out[at] = m.mergeMap(found, v, m.pos);
    else out.push(v);
  }
  return out;
}

function uniqueScalars(list: readonly JSONValue[]): JSONValue[] {
  const out: JSONValue[] = [];
  for (const v of list) if (!out.includes(v)) out.push(v);
  return out;
}

/** mergeSlice: the merged list in its settled order. */
export function mergeSlice(original: JSONValue[], patch: JSONValue[], m: SliceMerge): JSONValue[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementKind(original, patch);
  if (kind !== 'map') {
    if (m.isDeleteList) return original.filter((v) => !patch.includes(v));
    const merged = uniqueScalars([...original, ...patch]);
    return normalizeElementOrder(merged, { patchOrder: patch, serverOrder: original, mergeKey: '' });
  }
  if (m.mergeKey === '') throw new StrategicMergeError('cannot merge lists without merge key');
  const special = applySpecialElements(original, patch, m.mergeKey);
  const merged = mergeItems(special.original, special.patch, m);
  return normalizeElementOrder(merged, {
    patchOrder: special.patch,
    serverOrder: special.original,
    mergeKey: m.mergeKey,
  });
}
