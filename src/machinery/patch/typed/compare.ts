// What changed between two values of one type (structured-merge-diff typed/compare.go): fields
// added, modified and removed. Whole maps and lists that appear or vanish count as well.
// The walk fills the three sets level by level as it goes (Position), and skips what both sides
// share by identity. Comparing as Go-typed values (an Update's: kube converts both objects from
// their Go structs) leaves out the omitempty members that hold their zero value, `"labels": {}` and
// `"args": []` among them.
import type { PathElement } from '../fieldpath/path-element.js';
import { FieldSet } from '../fieldpath/set.js';
import { isJSONObject, jsonEqual, type JSONObject, type JSONValue } from '../json.js';
import { ItemIndex } from './item-index.js';
import { Position } from './position.js';
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

export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

const added = 0;
const modified = 1;
const removed = 2;

type Value = JSONValue | undefined;

interface Sides {
  readonly lhs: Value;
  readonly rhs: Value;
}

/** A list's items by element; a duplicated element keeps all its items. */
interface Item {
  readonly pe: PathElement;
  readonly value: JSONValue;
  more?: JSONValue[];
}

interface Indexed {
  readonly index: ItemIndex<Item>;
  readonly order: readonly Item[];
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const itemsOf = (it: Item): JSONValue[] => [it.value, ...(it.more ?? [])];
const asList = (v: Value): JSONValue[] | undefined => (Array.isArray(v) ? v : undefined);
const asMap = (v: Value): Record<string, JSONValue> | undefined => (isJSONObject(v) ? v : undefined);
const isEmpty = (v: object | undefined): boolean => {
  if (v === undefined) return true;
  if (Array.isArray(v)) return v.length === 0;
  for (const _ in v) return false;
  return true;
};

/** Lists longer than this are indexed: the in-place check looks for repeats pair by pair. */
const maxPaired = 16;

const isScalarValue = (v: JSONValue): boolean => v === null || typeof v !== 'object';

/**
 * Whether two list items' elements are one, as ItemIndex tells them apart: key fields by name and
 * value, a set's scalar by value, a set's object or list by its JSON. Other kinds are never paired.
 */
function sameElement(a: PathElement, b: PathElement): boolean {
  if (a.kind === 'key' && b.kind === 'key') {
    if (a.fields.length !== b.fields.length) return false;
    for (let i = 0; i < a.fields.length; i++) {
      const x = a.fields[i];
      const y = b.fields[i];
      if (x?.name !== y?.name || x?.value !== y?.value) return false;
    }
    return true;
  }
  if (a.kind === 'value' && b.kind === 'value') {
    if (isScalarValue(a.value) || isScalarValue(b.value)) return a.value === b.value;
    return JSON.stringify(a.value) === JSON.stringify(b.value);
  }
  return false;
}

class Comparer {
  readonly #resolver: SchemaResolver;
  readonly #goTyped: boolean;

  constructor(resolver: SchemaResolver, goTyped: boolean) {
    this.#resolver = resolver;
    this.#goTyped = goTyped;
  }

  #leaf(p: Sides, at: Position): void {
    if (p.lhs === undefined) at.mark(added);
    else if (p.rhs === undefined) at.mark(removed);
    else if (!jsonEqual(p.lhs, p.rhs)) at.mark(modified);
  }

  compareAt(ref: TypeRef, p: Sides, at: Position): void {
    // Identical values (shared subtrees, equal scalars) change nothing.
    if (p.lhs === p.rhs && p.lhs !== undefined) return;
    if (this.#compareNode(ref, p, at)) return;
    if (p.lhs === undefined) at.mark(added);
    else if (p.rhs === undefined) at.mark(removed);
  }

  /** Compares one position; returns true when it was handled as a leaf. */
  #compareNode(ref: TypeRef, p: Sides, at: Position): boolean {
    const node = typeOf(this.#resolver, ref, p.rhs ?? p.lhs);
    if (node.kind === 'list') {
      const l = asList(p.lhs);
      const r = asList(p.rhs);
      if (
        node.listType === 'atomic' ||
        (isEmpty(l) && isEmpty(r)) ||
        (l === undefined) !== this.#nil(p.lhs) ||
        (r === undefined) !== this.#nil(p.rhs)
      ) {
        this.#leaf(p, at);
        return true;
      }
      this.#visitList(node, { lhs: l, rhs: r }, at);
      return false;
    }
    if (node.kind === 'map') return this.#compareMap(node, p, at);
    this.#leaf(p, at);
    return true;
  }

  /**
   * Whether a side holds no list or map there: absent, or (Go-typed) a nil slice, map or pointer,
   * null, which holds nothing but is there: its items compare as added or removed, not it.
   */
  #nil(v: Value): boolean {
    return v === undefined || (this.#goTyped && v === null);
  }

  #compareMap(node: MapNode, p: Sides, at: Position): boolean {
    const l = asMap(p.lhs);
    const r = asMap(p.rhs);
    // An empty struct on one side and none on the other is no change (untyped compares: an apply's).
    // Go-typed, a struct held by value is present wherever its parent is (structByValue below), and
    // an absent one is a nil pointer or inside an absent parent: an empty one appearing is added.
    if (!this.#goTyped && node.isStruct && (p.lhs === undefined || p.rhs === undefined)) {
      if (isEmpty(l) && isEmpty(r)) return true;
    }
    if (
      node.atomic ||
      (isEmpty(l) && isEmpty(r)) ||
      (l === undefined) !== this.#nil(p.lhs) ||
      (r === undefined) !== this.#nil(p.rhs)
    ) {
      this.#leaf(p, at);
      return true;
    }
    const typed = this.#goTyped && node.omitEmpty !== undefined;
    const leftKeys = l === undefined ? [] : Object.keys(l);
    for (const key of leftKeys) {
      let lhs = l?.[key];
      let rhs = r?.[key];
      // The common case, an unchanged field, before making anything for it.
      if (lhs === rhs && lhs !== undefined) continue;
      // A key like `constructor` or `__proto__` that r lacks finds r's prototype: absent, as any other.
      if (rhs !== undefined && r !== undefined && !Object.hasOwn(r, key)) rhs = undefined;
      if (typed) {
        if (goLeavesOut(node, key, lhs)) lhs = undefined;
        if (goLeavesOut(node, key, rhs)) rhs = undefined;
        if (lhs === undefined && rhs === undefined) continue;
        if (rhs === undefined && r !== undefined) rhs = goZeroOf(node, key);
      }
      const type = memberType(node, key) ?? 'deduced';
      this.compareAt(type, { lhs, rhs }, at.field(key));
    }
    if (typed && (l === undefined) !== (r === undefined)) this.#zerosOfOneSide(node, { l, r }, at);
    if (r === undefined) return false;
    const rightKeys = Object.keys(r);
    // Two objects decoded from like JSON mostly have the same keys in the same order: then the
    // right side has no key of its own to visit.
    if (sameStrings(leftKeys, rightKeys)) return false;
    for (const key of rightKeys) {
      if (l !== undefined && Object.hasOwn(l, key)) continue;
      // A key l lacks, even one like `constructor` that l's prototype has.
      let lhs: JSONValue | undefined;
      const rhs = r[key];
      if (typed && goLeavesOut(node, key, rhs) && (lhs === undefined || goLeavesOut(node, key, lhs)))
        continue;
      if (lhs === undefined && l !== undefined && typed) lhs = goZeroOf(node, key);
      const type = memberType(node, key) ?? 'deduced';
      this.compareAt(type, { lhs, rhs }, at.field(key));
    }
    return false;
  }

  /**
   * A Go struct only one side holds (a new list item, a pointer set or cleared): the Go value holds
   * every member without omitempty, so those memory lacks there are added or removed with it as
   * their zero (a condition's `lastProbeTime` null, a required `status` ""), and a struct held by
   * value as `{}`, as structured-merge-diff's compare visits every member of the converted item.
   */
  #zerosOfOneSide(
    node: MapNode,
    sides: { readonly l: JSONObject | undefined; readonly r: JSONObject | undefined },
    at: Position,
  ): void {
    const held = sides.l ?? sides.r;
    if (held === undefined) return;
    const left = sides.l !== undefined;
    const visit = (key: string, zero: JSONValue): void => {
      if (held[key] !== undefined) return;
      const type = memberType(node, key) ?? 'deduced';
      this.compareAt(
        type,
        left ? { lhs: zero, rhs: undefined } : { lhs: undefined, rhs: zero },
        at.field(key),
      );
    };
    const zeros = node.zeros;
    if (zeros !== undefined) for (const key in zeros) visit(key, zeros[key] as JSONValue);
    if (node.byValue !== undefined) for (const key of node.byValue) visit(key, goStructByValue);
  }

  /** The items of a list in list order, a duplicated element's items together. */
  #indexItems(node: ListNode, list: JSONValue[] | undefined): Indexed {
    const index = new ItemIndex<Item>();
    const order: Item[] = [];
    if (list === undefined) return { index, order };
    for (let i = 0; i < list.length; i++) {
      const value = list[i] as JSONValue;
      let pe: PathElement;
      try {
        pe = listItemElement(this.#resolver, node, { value, index: i });
      } catch (err) {
        if (err instanceof TypedError) continue;
        throw err;
      }
      const entry = index.get(pe);
      if (entry !== undefined) (entry.more ??= []).push(value);
      else {
        const item = { pe, value };
        index.set(pe, item);
        order.push(item);
      }
    }
    return { index, order };
  }

  #visitList(
    node: ListNode,
    p: { lhs: JSONValue[] | undefined; rhs: JSONValue[] | undefined },
    at: Position,
  ): void {
    if (this.#visitPaired(node, p, at)) return;
    const left = this.#indexItems(node, p.lhs);
    const right = this.#indexItems(node, p.rhs);
    for (const l of left.order) this.#compareItem(node, { l, r: right.index.get(l.pe) }, at);
    for (const r of right.order)
      if (left.index.get(r.pe) === undefined) this.#compareItem(node, { l: undefined, r }, at);
  }

  /**
   * The common case of a list in an update: the same items, each where it was (a Pod's containers,
   * their ports and env). When both lists have their items' elements in the same order, none twice,
   * the items pair up in place and are compared as #visitList would pair them, with no index of
   * either side. Returns false, having compared nothing, for any other pair of lists.
   */
  #visitPaired(
    node: ListNode,
    p: { lhs: JSONValue[] | undefined; rhs: JSONValue[] | undefined },
    at: Position,
  ): boolean {
    const { lhs, rhs } = p;
    if (lhs === undefined || rhs === undefined || lhs.length !== rhs.length || lhs.length > maxPaired)
      return false;
    const elements: PathElement[] = [];
    for (let i = 0; i < lhs.length; i++) {
      let pe: PathElement;
      let other: PathElement;
      try {
        pe = listItemElement(this.#resolver, node, { value: lhs[i] as JSONValue, index: i });
        other = listItemElement(this.#resolver, node, { value: rhs[i] as JSONValue, index: i });
      } catch (err) {
        if (err instanceof TypedError) return false;
        throw err;
      }
      if (!sameElement(pe, other)) return false;
      for (const earlier of elements) if (sameElement(earlier, pe)) return false;
      elements.push(pe);
    }
    for (let i = 0; i < elements.length; i++) {
      const pe = elements[i] as PathElement;
      this.compareAt(node.element, { lhs: lhs[i], rhs: rhs[i] }, at.element(pe, node));
    }
    return true;
  }

  #compareItem(node: ListNode, p: { l: Item | undefined; r: Item | undefined }, list: Position): void {
    const { l, r } = p;
    const pe = l?.pe ?? r?.pe;
    if (pe === undefined) return;
    const at = list.element(pe, node);
    if (l?.more !== undefined || r?.more !== undefined) {
      const lhs = l === undefined ? undefined : itemsOf(l);
      const rhs = r === undefined ? undefined : itemsOf(r);
      this.#leaf({ lhs, rhs }, at);
      return;
    }
    this.compareAt(node.element, { lhs: l?.value, rhs: r?.value }, at);
  }
}

/**
 * The fields that differ from `lhs` to `rhs`; with `goTyped`, compared as the values kube converts
 * from Go structs (omitempty members at their zero value left out).
 */
export function compareValues(
  resolver: SchemaResolver,
  ref: TypeRef,
  pair: { lhs: JSONValue; rhs: JSONValue; goTyped?: boolean },
): Comparison {
  const out: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  const root = Position.root([out.added, out.modified, out.removed]);
  new Comparer(resolver, pair.goTyped === true).compareAt(ref, { lhs: pair.lhs, rhs: pair.rhs }, root);
  return out;
}
