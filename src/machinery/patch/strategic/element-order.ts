// Ordering of merged lists (strategicpatch/patch.go normalizeElementOrder and mergeSortedSlice):
// items named by the patch keep the patch's order, server-only items keep the live order, and the
// two are interleaved by their places in the live list.
import type { JSONValue } from '../json.js';
import { errNoMergeKey } from './errors.js';
import { isMap } from './values.js';

/** The value an item is identified by: its merge key's value, or the item itself. */
function identity(item: JSONValue, mergeKey: string): JSONValue | undefined {
  if (mergeKey === '') return item;
  return isMap(item) ? item[mergeKey] : undefined;
}

function indexIn(list: readonly JSONValue[], item: JSONValue, mergeKey: string): number {
  const id = identity(item, mergeKey);
  return list.findIndex((v) => identity(v, mergeKey) === id);
}

export function requireMergeKey(lists: readonly (readonly JSONValue[])[], mergeKey: string): void {
  for (const list of lists) {
    for (const item of list)
      if (!isMap(item) || !Object.hasOwn(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
  }
}

const isDeleteItem = (v: JSONValue): boolean => isMap(v) && v['$patch'] === 'delete';

/** normalizeSliceOrder: sorts by place in `order`; `$patch: delete` items go last. */
export function sortByOrder(
  toSort: readonly JSONValue[],
  order: readonly JSONValue[],
  mergeKey: string,
): JSONValue[] {
  let items = [...toSort];
  let deletes: JSONValue[] = [];
  if (mergeKey !== '') {
    requireMergeKey([items, order], mergeKey);
    deletes = items.filter(isDeleteItem);
    items = items.filter((v) => !isDeleteItem(v));
  }
  const ranked = items.map((v, i) => ({ v, i, at: indexIn(order, v, mergeKey) }));
  ranked.sort((a, b) => (a.at >= 0 && b.at >= 0 && a.at !== b.at ? a.at - b.at : a.i - b.i));
  return [...ranked.map((r) => r.v), ...deletes];
}

/** mergeSortedSlice: puts each server-only item before the first patch item it precedes live. */
function interleave(
  left: readonly JSONValue[],
  right: readonly JSONValue[],
  ctx: { serverOrder: readonly JSONValue[]; mergeKey: string },
): JSONValue[] {
  const out: JSONValue[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    const l = left[i];
    const r = right[j];
    if (l === undefined) {
      out.push(r as JSONValue);
      j++;
    } else if (r === undefined) {
      out.push(l);
      i++;
    } else {
      const li = indexIn(ctx.serverOrder, l, ctx.mergeKey);
      const ri = indexIn(ctx.serverOrder, r, ctx.mergeKey);
      if (li >= 0 && ri >= 0 && li < ri) {
        out.push(l);
        i++;
      } else {
        out.push(r);
        j++;
      }
    }
  }
  return out;
}

/** normalizeElementOrder over a merged list split into patch items and server-only items. */
export function normalizeElementOrder(
  merged: readonly JSONValue[],
  order: { patchOrder: readonly JSONValue[]; serverOrder: readonly JSONValue[]; mergeKey: string },
): JSONValue[] {
  const { patchOrder, serverOrder, mergeKey } = order;
  if (mergeKey !== '') requireMergeKey([merged], mergeKey);
  const inPatch = (v: JSONValue): boolean => indexIn(patchOrder, v, mergeKey) >= 0;
  const patchItems = sortByOrder(merged.filter(inPatch), patchOrder, mergeKey);
  const serverOnly = sortByOrder(
    merged.filter((v) => !inPatch(v)),
    serverOrder,
    mergeKey,
  );
  return interleave(serverOnly, patchItems, { serverOrder, mergeKey });
}
