// Merges an applied configuration into the live object (structured-merge-diff typed/merge.go):
// the configuration wins on leaves, maps merge by key, granular lists merge by item identity with
// the configuration's order for items both sides have.
import type { PathElement } from '../fieldpath/path-element.js';
import { isJSONObject, jsonEqual, type JSONValue } from '../json.js';
import { ItemIndex } from './item-index.js';
import {
  listItemElement,
  memberType,
  typeOf,
  TypedError,
  type ListNode,
  type MapNode,
  type SchemaResolver,
  type TypeRef,
} from './type-node.js';
import { memberOf, setMember } from '../../json/set-member.js';

type Value = JSONValue | undefined;

/** A list's first item of an element, and the other list's first item of the same element. */
interface Item {
  readonly pe: PathElement;
  readonly value: JSONValue;
  partner: Item | undefined;
  merged: boolean;
}

interface Indexed {
  readonly order: Item[];
  readonly index: ItemIndex<Item>;
}

function indexList(resolver: SchemaResolver, node: ListNode, list: readonly JSONValue[]): Indexed {
  const order: Item[] = [];
  const index = new ItemIndex<Item>();
  for (let i = 0; i < list.length; i++) {
    const value = list[i] as JSONValue;
    let pe: PathElement;
    try {
      pe = listItemElement(resolver, node, { value, index: i });
    } catch (err) {
      if (err instanceof TypedError) continue;
      throw err;
    }
    if (index.get(pe) !== undefined) continue;
    const item: Item = { pe, value, partner: undefined, merged: false };
    index.set(pe, item);
    order.push(item);
  }
  return { order, index };
}

/** The merged list as it is built: items taken in turn, and the shared items still to come. */
class ListMerge {
  readonly #resolver: SchemaResolver;
  readonly #node: ListNode;
  /** The configuration's items that the live list has too, in the configuration's order. */
  readonly #shared: readonly Item[];
  #next = 0;
  readonly out: JSONValue[] = [];

  constructor(resolver: SchemaResolver, node: ListNode, shared: readonly Item[]) {
    this.#resolver = resolver;
    this.#node = node;
    this.#shared = shared;
  }

  /** The shared item expected next, if any. */
  get nextShared(): Item | undefined {
    return this.#shared[this.#next];
  }

  /** Merges an item of the live list alone (`fromLeft`), or of the configuration with its partner. */
  take(item: Item, fromLeft: boolean): void {
    const pair = fromLeft
      ? { lhs: item.value, rhs: undefined }
      : { lhs: item.partner?.value, rhs: item.value };
    const v = mergeValues(this.#resolver, this.#node.element, pair);
    if (v !== undefined) this.out.push(v);
    item.merged = true;
    if (this.#shared[this.#next] === item) this.#next++;
  }
}

/**
 * The items merged in order: the live list's, with the configuration's items that both have in
 * the configuration's order. An element both lists have goes by its configuration item.
 */
function mergeList(
  resolver: SchemaResolver,
  node: ListNode,
  sides: { lhs: readonly JSONValue[]; rhs: readonly JSONValue[] },
): JSONValue[] {
  const l = indexList(resolver, node, sides.lhs);
  const r = indexList(resolver, node, sides.rhs);
  for (const item of l.order) item.partner = r.index.get(item.pe);
  for (const item of r.order) item.partner = l.index.get(item.pe);
  const merge = new ListMerge(
    resolver,
    node,
    r.order.filter((e) => e.partner !== undefined),
  );
  let li = 0;
  let ri = 0;
  while (li < l.order.length || ri < r.order.length) {
    const left = l.order[li];
    const right = r.order[ri];
    if (left !== undefined && right !== undefined) {
      if (left.partner === right) {
        merge.take(right, false);
        li++;
        ri++;
        continue;
      }
      const nextShared = merge.nextShared;
      if (left.partner !== undefined && nextShared !== undefined && nextShared !== left.partner) {
        li++;
        continue;
      }
    }
    if (left !== undefined && (left.partner === undefined || left.partner.merged)) {
      if (left.partner === undefined) merge.take(left, true);
      li++;
      continue;
    }
    if (right !== undefined) {
      merge.take(right, false);
      ri++;
    }
  }
  const out = merge.out;
  // The live list itself when its items came back as they were, in their places.
  if (out.length === sides.lhs.length && out.every((v, i) => v === sides.lhs[i]))
    return sides.lhs as JSONValue[];
  return out;
}

/**
 * The merged map; `lhs` itself when every member merged to the live one's own value (nothing in the
 * configuration changed it), so that what an apply leaves alone stays shared with the live object
 * and the compares after the merge pass over it at once.
 */
function mergeMap(
  resolver: SchemaResolver,
  node: MapNode,
  sides: { lhs: Record<string, JSONValue>; rhs: Record<string, JSONValue> },
): Record<string, JSONValue> {
  const { lhs, rhs } = sides;
  let out: Record<string, JSONValue> | undefined;
  const keys = Object.keys(lhs);
  for (const key of Object.keys(rhs)) if (!Object.hasOwn(lhs, key)) keys.push(key);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const type = memberType(node, key) ?? 'deduced';
    const was = memberOf(lhs, key);
    const v = mergeValues(resolver, type, { lhs: was, rhs: memberOf(rhs, key) });
    if (out === undefined) {
      if (v === was) continue;
      // The first member that differs: the ones before it are the live map's.
      out = {};
      for (const k of keys.slice(0, i)) {
        const kept = memberOf(lhs, k);
        if (kept !== undefined) setMember(out, k, kept);
      }
    }
    if (v !== undefined) setMember(out, key, v);
  }
  return out ?? lhs;
}

const isEmpty = (v: Value): boolean =>
  v === undefined || v === null || (typeof v === 'object' && Object.keys(v).length === 0);

/** The merge of `lhs` (live) and `rhs` (configuration) at one position. */
export function mergeValues(
  resolver: SchemaResolver,
  ref: TypeRef,
  sides: { lhs: Value; rhs: Value },
): Value {
  const { lhs, rhs } = sides;
  if (lhs === undefined || rhs === undefined) return rhs ?? lhs;
  // Two empty values: the configuration's, unless it is the live one's twin (`{}` and `{}`).
  if (isEmpty(lhs) && isEmpty(rhs)) return jsonEqual(lhs, rhs) ? lhs : rhs;
  const node = typeOf(resolver, ref, rhs);
  if (node.kind === 'list' && node.listType !== 'atomic' && Array.isArray(lhs) && Array.isArray(rhs)) {
    return mergeList(resolver, node, { lhs, rhs });
  }
  if (node.kind === 'map' && !node.atomic && isJSONObject(lhs) && isJSONObject(rhs)) {
    return mergeMap(resolver, node, { lhs, rhs });
  }
  return rhs;
}
