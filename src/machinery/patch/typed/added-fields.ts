// A create's changes, written straight as FieldsV1. Compared with an object that holds nothing
// next lacks or holds differently (storage.newObject(): apiVersion and kind), next is only
// added fields: what compareValues marks added, walked once without building sets or paths.
// Every rule here is compare.ts's for a left side that is undefined, comparing Go-typed values (an
// Update's): an omitempty member of a Go struct holding its zero value is not there.
import { comparePathElements, fieldKey, type PathElement } from '../fieldpath/path-element.js';
import { sortSmall, sortStrings } from '../../json/small-sort.js';
import { isJSONObject, type JSONObject, type JSONValue } from '../json.js';
import { itemKey } from './item-index.js';
import {
  goLeavesOut,
  isEmptyGoStruct,
  listItemElement,
  memberType,
  typeOf,
  TypedError,
  type ListNode,
  type MapNode,
  type SchemaResolver,
  type TypeRef,
} from './type-node.js';

type Value = JSONValue | undefined;

const isEmpty = (v: object): boolean => {
  for (const _ in v) return false;
  return true;
};

/** A list item by element; a duplicated element is added whole, as one leaf. */
interface Item {
  readonly pe: PathElement;
  readonly value: JSONValue;
  duplicated: boolean;
}

const byElement = (a: Item, b: Item): number => comparePathElements(a.pe, b.pe);

class AddedFields {
  readonly #resolver: SchemaResolver;

  constructor(resolver: SchemaResolver) {
    this.#resolver = resolver;
  }

  /** The FieldsV1 of a position compare finds added with `value`; undefined when it marks nothing. */
  at(ref: TypeRef, value: Value): JSONObject | undefined {
    const node = typeOf(this.#resolver, ref, value);
    if (node.kind === 'list') {
      if (node.listType === 'atomic' || !Array.isArray(value) || value.length === 0) return {};
      return this.#list(node, value);
    }
    if (node.kind === 'map') {
      const r = isJSONObject(value) ? value : undefined;
      // A Go struct is never absent: one that appears empty (or not as a map) is no change.
      if (node.isStruct && isEmptyGoStruct(node, r)) return undefined;
      if (node.atomic || r === undefined || isEmpty(r)) return {};
      return this.#map(node, r);
    }
    return {};
  }

  /** The children of an added map, after the `.` that makes the map itself a member. */
  #map(node: MapNode, r: JSONObject): JSONObject {
    const out: JSONObject = { '.': {} };
    let children = false;
    // Field names sort as comparePathElements sorts them: by UTF-16 code units.
    for (const key of sortStrings(Object.keys(r))) {
      if (goLeavesOut(node, key, r[key])) continue;
      const child = this.at(memberType(node, key) ?? 'deduced', r[key]);
      if (child === undefined) continue;
      out[fieldKey(key)] = child;
      children = true;
    }
    return children ? out : {};
  }

  #list(node: ListNode, list: readonly JSONValue[]): JSONObject {
    const items: Item[] = [];
    for (let i = 0; i < list.length; i++) {
      const value = list[i] as JSONValue;
      try {
        items.push({
          pe: listItemElement(this.#resolver, node, { value, index: i }),
          value,
          duplicated: false,
        });
      } catch (err) {
        if (err instanceof TypedError) continue;
        throw err;
      }
    }
    // Sorted stably, items with the same element are neighbours, the first of them in list order
    // ahead: it stands for them all, added whole (as ItemIndex pairs them, without its maps).
    const sorted = sortSmall(items, byElement);
    const out: JSONObject = { '.': {} };
    let children = false;
    for (let i = 0; i < sorted.length; i++) {
      const item = sorted[i] as Item;
      while (i + 1 < sorted.length && byElement(item, sorted[i + 1] as Item) === 0) {
        item.duplicated = true;
        i++;
      }
      const child = item.duplicated ? {} : this.at(node.element, item.value);
      if (child === undefined) continue;
      out[itemKey(node, item.pe)] = child;
      children = true;
    }
    return children ? out : {};
  }
}

/**
 * The FieldsV1 of what compareValues(resolver, ref, {lhs, rhs, goTyped: true}) finds added, when it finds
 * nothing modified because every field of `lhs` is absent from `rhs` or holds the very same
 * value there; undefined when that is not so (then compare the usual way). What such a compare
 * finds removed is not reported.
 */
export function addedFieldsV1(
  resolver: SchemaResolver,
  ref: TypeRef,
  pair: { lhs: JSONValue; rhs: JSONValue },
): JSONObject | undefined {
  const { lhs, rhs } = pair;
  if (!isJSONObject(lhs) || !isJSONObject(rhs) || isEmpty(rhs)) return undefined;
  const node = typeOf(resolver, ref, rhs);
  if (node.kind !== 'map' || node.atomic) return undefined;
  for (const key of Object.keys(lhs)) {
    const l = lhs[key];
    const r = rhs[key];
    if (l === undefined || (r !== undefined && r !== l)) return undefined;
  }
  const walk = new AddedFields(resolver);
  const out: JSONObject = {};
  for (const key of sortStrings(Object.keys(rhs))) {
    if (Object.hasOwn(lhs, key)) continue;
    // A key like `constructor` finds lhs's prototype where compare looks it up.
    if (lhs[key] !== undefined) return undefined;
    if (goLeavesOut(node, key, rhs[key])) continue;
    const child = walk.at(memberType(node, key) ?? 'deduced', rhs[key]);
    if (child !== undefined) out[fieldKey(key)] = child;
  }
  return out;
}
