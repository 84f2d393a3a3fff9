// validatePatchWithSetOrderList: the patch list's items must appear in the `$setElementOrder`
// list, in the same relative order (items being deleted aside).
import { goValueString } from '../go-value.js';
import type { JSONValue } from '../json.js';
import { errBadArgType, errNoMergeKey, StrategicMergeError } from './errors.js';
import { directiveMarker, isMap, setElementOrderPrefix } from './values.js';

function sameItem(left: JSONValue, right: JSONValue, mergeKey: string): boolean {
  if (mergeKey === '') return left === right;
  if (!isMap(left)) throw errBadArgType('map', left);
  if (!isMap(right)) throw errBadArgType('map', right);
  if (!Object.hasOwn(left, mergeKey)) throw errNoMergeKey(left, mergeKey);
  if (!Object.hasOwn(right, mergeKey)) throw errNoMergeKey(right, mergeKey);
  return left[mergeKey] === right[mergeKey];
}

export function validateSetElementOrder(
  patchList: readonly JSONValue[],
  order: readonly JSONValue[],
  mergeKey: string,
): void {
  if (order.length === 0 || patchList.length === 0) return;
  let items = patchList;
  if (mergeKey !== '') {
    for (const v of patchList) if (!isMap(v)) throw errBadArgType('map', v);
    items = patchList.filter((v) => !(isMap(v) && v[directiveMarker] === 'delete'));
  }
  let p = 0;
  let o = 0;
  while (p < items.length && o < order.length) {
    const item = items[p] as JSONValue;
    if (isMap(item) && Object.hasOwn(item, directiveMarker)) {
      p++;
      continue;
    }
    if (sameItem(item, order[o] as JSONValue, mergeKey)) p++;
    o++;
  }
  if (p < items.length && o >= order.length) {
    throw new StrategicMergeError(
      `The order in patch list:\n${goValueString(patchList)}\n doesn't match ${setElementOrderPrefix} list:\n${goValueString(order)}\n`,
    );
  }
}
