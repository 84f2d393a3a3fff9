// Merges an applied configuration into the live object (structured-merge-diff typed/merge.go):
// the configuration wins on leaves, maps merge by key, granular lists merge by item identity with
// the configuration's order for items both sides have.
import { pathElementKey, type PathElement } from '../fieldpath/path-element.js';
import { isJSONObject, type JSONValue } from '../json.js';
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

type Value = JSONValue | undefined;

interface Indexed {
  readonly order: { key: string; pe: PathElement }[];
  readonly items: Map<string, JSONValue>;
}

function indexList(resolver: SchemaResolver, node: ListNode, list: readonly JSONValue[]): Indexed {
  const order: { key: string; pe: PathElement }[] = [];
  const items = new Map<string, JSONValue>();
  list.forEach((value, index) => {
    let pe: PathElement;
    try {
      pe = listItemElement(resolver, node, { value, index });
    } catch (err) {
      if (err instanceof TypedError) return;
      throw err;
    }
    const key = pathElementKey(pe);
    if (items.has(key)) return;
    items.set(key, value);
    order.push({ key, pe });
  });
  return { order, items };
}

function mergeList(
  resolver: SchemaResolver,
  node: ListNode,
  sides: { lhs: readonly JSONValue[]; rhs: readonly JSONValue[] },
): JSONValue[] {
  const l = indexList(resolver, node, sides.lhs);
  const r = indexList(resolver, node, sides.rhs);
  const shared = r.order.filter((e) => l.items.has(e.key)).map((e) => e.key);
  let nextShared = shared.shift();
  const merged = new Set<string>();
  const out: JSONValue[] = [];
  const take = (key: string): void => {
    const v = mergeValues(resolver, node.element, { lhs: l.items.get(key), rhs: r.items.get(key) });
    if (v !== undefined) out.push(v);
    merged.add(key);
    if (nextShared === key) nextShared = shared.shift();
  };
  let li = 0;
  let ri = 0;
  while (li < l.order.length || ri < r.order.length) {
    const lk = l.order[li]?.key;
    const rk = r.order[ri]?.key;
    if (lk !== undefined && rk !== undefined) {
      if (lk === rk) {
        take(lk);
        li++;
        ri++;
        continue;
      }
      if (r.items.has(lk) && nextShared !== undefined && nextShared !== lk) {
        li++;
        continue;
      }
    }
    if (lk !== undefined && (!r.items.has(lk) || merged.has(lk))) {
      if (!r.items.has(lk)) take(lk);
      li++;
      continue;
    }
    if (rk !== undefined) {
      take(rk);
      ri++;
    }
  }
  return out;
}

function mergeMap(
  resolver: SchemaResolver,
  node: MapNode,
  sides: { lhs: Record<string, JSONValue>; rhs: Record<string, JSONValue> },
): Record<string, JSONValue> {
  const out: Record<string, JSONValue> = {};
  const keys = new Set([...Object.keys(sides.lhs), ...Object.keys(sides.rhs)]);
  for (const key of keys) {
    const type = memberType(node, key) ?? 'deduced';
    const v = mergeValues(resolver, type, { lhs: sides.lhs[key], rhs: sides.rhs[key] });
    if (v !== undefined) out[key] = v;
  }
  return out;
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
  if (lhs === undefined || rhs === undefined || (isEmpty(lhs) && isEmpty(rhs))) return rhs ?? lhs;
  const node = typeOf(resolver, ref, rhs);
  if (node.kind === 'list' && node.listType !== 'atomic' && Array.isArray(lhs) && Array.isArray(rhs)) {
    return mergeList(resolver, node, { lhs, rhs });
  }
  if (node.kind === 'map' && !node.atomic && isJSONObject(lhs) && isJSONObject(rhs)) {
    return mergeMap(resolver, node, { lhs, rhs });
  }
  return rhs;
}
