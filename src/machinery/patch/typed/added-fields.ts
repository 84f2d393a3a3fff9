// A create's changes, written straight as FieldsV1: what compareValues (Go-typed) finds added or
// modified from the Go zero object of the kind (kube's create compares the new object with it) to
// the new object, walked once without building sets or paths. The zero object holds only structs
// held by value, nils (null), zero scalars and zero times; next mostly adds to it. Every rule here
// is compare.ts's: an omitempty member of a Go struct holding its zero value is not there, a nil
// list or map is there but holds nothing (its items are added, not it), a struct held by value is
// there wherever its parent is, an empty struct that appears is added.
import { comparePathElements, fieldKey, type PathElement } from '../fieldpath/path-element.js';
import { sortSmall, sortStrings } from '../../json/small-sort.js';
import { isJSONObject, jsonEqual, type JSONObject, type JSONValue } from '../json.js';
import { itemKey } from './item-index.js';
import {
  goLeavesOut,
  goStructByValue,
  goZeroOf,
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

/**
 * The members a new Go struct holds that memory lacks (compare.ts's zerosOfOneSide): those
 * without omitempty, as their zero, and the structs held by value, as `{}`; undefined for none.
 */
function missingGoZeros(node: MapNode, r: JSONObject): Record<string, JSONValue> | undefined {
  if (node.omitEmpty === undefined) return undefined;
  let out: Record<string, JSONValue> | undefined;
  const zeros = node.zeros;
  if (zeros !== undefined) {
    for (const key in zeros) {
      if (r[key] === undefined)
        (out ??= Object.create(null) as Record<string, JSONValue>)[key] = zeros[key] as JSONValue;
    }
  }
  if (node.byValue !== undefined) {
    for (const key of node.byValue) {
      if (r[key] === undefined)
        (out ??= Object.create(null) as Record<string, JSONValue>)[key] = goStructByValue;
    }
  }
  return out;
}

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
      if (node.atomic || r === undefined || isEmpty(r)) return {};
      return this.#map(node, r);
    }
    return {};
  }

  /**
   * The children of an added map, after the `.` that makes the map itself a member; without it
   * (`nil`), the children of a nil map that holds them now.
   */
  #map(node: MapNode, r: JSONObject, nil = false): JSONObject {
    const out: JSONObject = nil ? {} : { '.': {} };
    let children = false;
    const zeros = missingGoZeros(node, r);
    const keys = Object.keys(r);
    if (zeros !== undefined) for (const key in zeros) keys.push(key);
    // Field names sort as comparePathElements sorts them: by UTF-16 code units.
    for (const key of sortStrings(keys)) {
      const value = zeros !== undefined && key in zeros ? zeros[key] : r[key];
      if (goLeavesOut(node, key, value)) continue;
      const child = this.at(memberType(node, key) ?? 'deduced', value);
      if (child === undefined) continue;
      out[fieldKey(key)] = child;
      children = true;
    }
    return children ? out : {};
  }

  #list(node: ListNode, list: readonly JSONValue[], nil = false): JSONObject {
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
    const out: JSONObject = nil ? {} : { '.': {} };
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

  /**
   * What changed where `lhs` (the zero object's value) and `rhs` are both there: nothing, `{}` (a
   * leaf modified), the changes below it, or `bail` for a pair the general compare must judge.
   */
  changed(ref: TypeRef, lhs: JSONValue, rhs: JSONValue): JSONObject | undefined | typeof bail {
    if (lhs === rhs) return undefined;
    const node = typeOf(this.#resolver, ref, rhs);
    if (node.kind === 'list') {
      if (!Array.isArray(rhs) || (lhs !== null && !Array.isArray(lhs))) return bail;
      const l: readonly JSONValue[] = lhs ?? [];
      if (node.listType === 'atomic' || (l.length === 0 && rhs.length === 0)) return leaf(lhs, rhs);
      // Items on both sides are paired by the general compare.
      if (l.length > 0) return bail;
      const items = this.#list(node, rhs, true);
      return isEmpty(items) ? undefined : items;
    }
    if (node.kind === 'map') {
      if (!isJSONObject(rhs) || (lhs !== null && !isJSONObject(lhs))) return bail;
      const l: JSONObject = lhs ?? {};
      if (node.atomic || (isEmpty(l) && isEmpty(rhs))) return leaf(lhs, rhs);
      if (isEmpty(rhs)) return this.#removedOnly(node, l) ? undefined : bail;
      if (lhs === null) {
        const children = this.#map(node, rhs, true);
        return isEmpty(children) ? undefined : children;
      }
      return this.against(node, l, rhs);
    }
    return leaf(lhs, rhs);
  }

  /**
   * Whether what only `lhs` holds (rhs lacking it) is at most removed: the general compare holds a
   * struct held by value that rhs lacks as `{}`, which a value other than a struct, or an atomic
   * one that is not empty, differs from.
   */
  #removedOnly(node: MapNode, lhs: JSONObject, rhs?: JSONObject): boolean {
    if (node.omitEmpty === undefined) return true;
    const zeros = node.zeros;
    if (zeros !== undefined) {
      // A member without omitempty that rhs lacks is its zero there: the zero object's own matches.
      for (const key in zeros) {
        if (rhs?.[key] !== undefined || !Object.hasOwn(lhs, key)) continue;
        if (lhs[key] !== zeros[key]) return false;
      }
    }
    const byValue = node.byValue;
    if (byValue === undefined) return true;
    for (const key of byValue) {
      if (rhs?.[key] !== undefined || !Object.hasOwn(lhs, key)) continue;
      const l = lhs[key] as JSONValue;
      if (!isJSONObject(l)) return false;
      if (isEmpty(l)) continue;
      const child = typeOf(this.#resolver, memberType(node, key) ?? 'deduced', l);
      if (child.kind !== 'map' || child.atomic || !this.#removedOnly(child, l)) return false;
    }
    return true;
  }

  /** The changes below a map both sides hold (the zero object's on the left). */
  against(node: MapNode, lhs: JSONObject, rhs: JSONObject): JSONObject | undefined | typeof bail {
    const typed = node.omitEmpty !== undefined;
    if (!this.#removedOnly(node, lhs, rhs)) return bail;
    let out: JSONObject | undefined;
    for (const key of sortStrings(Object.keys(rhs))) {
      let r: JSONValue | undefined = rhs[key];
      let l: JSONValue | undefined = lhs[key];
      // A key lhs lacks, even one like `constructor` that its prototype has (compare's view).
      if (l !== undefined && !Object.hasOwn(lhs, key)) l = undefined;
      if (typed) {
        if (goLeavesOut(node, key, r)) r = undefined;
        if (goLeavesOut(node, key, l)) l = undefined;
      }
      if (r === undefined) continue;
      if (l === undefined && typed) l = goZeroOf(node, key);
      const type = memberType(node, key) ?? 'deduced';
      const child = l === undefined ? this.at(type, r) : this.changed(type, l, r);
      if (child === bail) return bail;
      if (child !== undefined) (out ??= {})[fieldKey(key)] = child;
    }
    return out;
  }
}

/** A leaf both sides hold: unchanged, or modified (`{}`). */
const leaf = (lhs: JSONValue, rhs: JSONValue): JSONObject | undefined =>
  jsonEqual(lhs, rhs) ? undefined : {};

/** What the walk answers for a pair it leaves to the general compare. */
const bail: unique symbol = Symbol('bail');

/**
 * The FieldsV1 of what compareValues(resolver, ref, {lhs, rhs, goTyped: true}) finds added or
 * modified, for `lhs` the Go zero object of the kind (or `{apiVersion, kind}` for a kind without Go
 * struct) and `rhs` a new object; undefined for a pair the walk does not judge (then compare the
 * usual way). What such a compare finds removed is not reported.
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
  const out = new AddedFields(resolver).against(node, lhs, rhs);
  return out === bail ? undefined : (out ?? {});
}
