// What changed between two values of one type (structured-merge-diff typed/compare.go): fields
// added, modified and removed. Whole maps and lists that appear or vanish count as well.
import { pathElementKey, type Path, type PathElement } from '../fieldpath/path-element.js';
import { FieldSet } from '../fieldpath/set.js';
import { isJSONObject, jsonEqual, type JSONValue } from '../json.js';
import {
  listItemElement,
  memberType,
  typeOf,
  TypedError,
  type ListNode,
  type SchemaResolver,
  type TypeRef,
} from './type-node.js';

export interface Comparison {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

interface Walk {
  readonly resolver: SchemaResolver;
  readonly out: Comparison;
}

interface Pair {
  readonly lhs: JSONValue | undefined;
  readonly rhs: JSONValue | undefined;
  readonly path: Path;
}

function leaf(w: Walk, p: Pair): void {
  if (p.lhs === undefined) w.out.added.insert(p.path);
  else if (p.rhs === undefined) w.out.removed.insert(p.path);
  else if (!jsonEqual(p.lhs, p.rhs)) w.out.modified.insert(p.path);
}

function indexItems(
  w: Walk,
  node: ListNode,
  list: JSONValue[] | undefined,
): Map<string, { pe: PathElement; items: JSONValue[] }> {
  const out = new Map<string, { pe: PathElement; items: JSONValue[] }>();
  (list ?? []).forEach((value, index) => {
    let pe: PathElement;
    try {
      pe = listItemElement(w.resolver, node, { value, index });
    } catch (err) {
      if (err instanceof TypedError) return;
      throw err;
    }
    const key = pathElementKey(pe);
    const entry = out.get(key);
    if (entry === undefined) out.set(key, { pe, items: [value] });
    else entry.items.push(value);
  });
  return out;
}

function visitList(
  w: Walk,
  node: ListNode,
  p: { lhs: JSONValue[] | undefined; rhs: JSONValue[] | undefined; path: Path },
): void {
  const left = indexItems(w, node, p.lhs);
  const right = indexItems(w, node, p.rhs);
  const keys = new Set([...left.keys(), ...right.keys()]);
  for (const key of keys) {
    const l = left.get(key);
    const r = right.get(key);
    const pe = (l ?? r)?.pe;
    if (pe === undefined) continue;
    const path = [...p.path, pe];
    if ((l?.items.length ?? 0) > 1 || (r?.items.length ?? 0) > 1) {
      leaf(w, {
        lhs: l === undefined ? undefined : l.items,
        rhs: r === undefined ? undefined : r.items,
        path,
      });
      continue;
    }
    compareAt(w, node.element, { lhs: l?.items[0], rhs: r?.items[0], path });
  }
}

const asList = (v: JSONValue | undefined): JSONValue[] | undefined => (Array.isArray(v) ? v : undefined);
const asMap = (v: JSONValue | undefined): Record<string, JSONValue> | undefined =>
  isJSONObject(v) ? v : undefined;
const isEmpty = (v: object | undefined): boolean => v === undefined || Object.keys(v).length === 0;

/** Compares one position; returns true when it was handled as a leaf. */
function compareNode(w: Walk, ref: TypeRef, p: Pair): boolean {
  const node = typeOf(w.resolver, ref, p.rhs ?? p.lhs);
  if (node.kind === 'list') {
    const l = asList(p.lhs);
    const r = asList(p.rhs);
    if (
      node.listType === 'atomic' ||
      (isEmpty(l) && isEmpty(r)) ||
      (l === undefined) !== (p.lhs === undefined) ||
      (r === undefined) !== (p.rhs === undefined)
    ) {
      leaf(w, p);
      return true;
    }
    visitList(w, node, { lhs: l, rhs: r, path: p.path });
    return false;
  }
  if (node.kind === 'map') {
    const l = asMap(p.lhs);
    const r = asMap(p.rhs);
    // A Go struct is never absent: an empty one on one side and none on the other is no change.
    const isStruct = Object.keys(node.fields).length > 0;
    if (isStruct && isEmpty(l) && isEmpty(r) && (p.lhs === undefined || p.rhs === undefined)) return true;
    if (
      node.atomic ||
      (isEmpty(l) && isEmpty(r)) ||
      (l === undefined) !== (p.lhs === undefined) ||
      (r === undefined) !== (p.rhs === undefined)
    ) {
      leaf(w, p);
      return true;
    }
    const keys = new Set([...Object.keys(l ?? {}), ...Object.keys(r ?? {})]);
    for (const key of keys) {
      const type = memberType(node, key) ?? 'deduced';
      compareAt(w, type, { lhs: l?.[key], rhs: r?.[key], path: [...p.path, { kind: 'field', name: key }] });
    }
    return false;
  }
  leaf(w, p);
  return true;
}

function compareAt(w: Walk, ref: TypeRef, p: Pair): void {
  if (compareNode(w, ref, p)) return;
  if (p.lhs === undefined) w.out.added.insert(p.path);
  else if (p.rhs === undefined) w.out.removed.insert(p.path);
}

/** The fields that differ from `lhs` to `rhs`. */
export function compareValues(
  resolver: SchemaResolver,
  ref: TypeRef,
  pair: { lhs: JSONValue; rhs: JSONValue },
): Comparison {
  const out: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  compareAt({ resolver, out }, ref, { lhs: pair.lhs, rhs: pair.rhs, path: [] });
  return out;
}
