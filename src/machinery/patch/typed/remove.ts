// Removes the fields of a set from a value (structured-merge-diff typed/remove.go). A map or list
// left with nothing in it disappears; atomic values named by the set go whole.
import type { PathElement } from '../fieldpath/path-element.js';
import type { FieldSet } from '../fieldpath/set.js';
import { isJSONObject, type JSONValue } from '../json.js';
import {
  listItemElement,
  memberType,
  typeOf,
  TypedError,
  type SchemaResolver,
  type TypeRef,
} from './type-node.js';
import { setMember } from '../../json/set-member.js';

type Value = JSONValue | undefined;

function removeFromList(
  resolver: SchemaResolver,
  ref: TypeRef,
  at: { value: JSONValue[]; set: FieldSet },
): Value {
  const node = typeOf(resolver, ref, at.value);
  if (node.kind !== 'list' || node.listType === 'atomic') return undefined;
  const out: JSONValue[] = [];
  at.value.forEach((item, index) => {
    let pe: PathElement;
    try {
      pe = listItemElement(resolver, node, { value: item, index });
    } catch (err) {
      if (!(err instanceof TypedError)) throw err;
      out.push(item);
      return;
    }
    if (at.set.hasMember(pe)) return;
    const sub = at.set.withPrefix(pe);
    const kept = sub.empty() ? item : removeItems(resolver, node.element, { value: item, set: sub });
    out.push(kept ?? null);
  });
  return out.length > 0 ? out : undefined;
}

function removeFromMap(
  resolver: SchemaResolver,
  ref: TypeRef,
  at: { value: Record<string, JSONValue>; set: FieldSet },
): Value {
  const node = typeOf(resolver, ref, at.value);
  if (node.kind !== 'map' || node.atomic) return undefined;
  const out: Record<string, JSONValue> = {};
  for (const [key, val] of Object.entries(at.value)) {
    const pe: PathElement = { kind: 'field', name: key };
    if (at.set.hasMember(pe)) continue;
    const sub = at.set.withPrefix(pe);
    const kept = sub.empty()
      ? val
      : removeItems(resolver, memberType(node, key) ?? 'deduced', { value: val, set: sub });
    if (kept !== undefined) setMember(out, key, kept);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** `value` without the fields of `set`; undefined when nothing is left. */
export function removeItems(
  resolver: SchemaResolver,
  ref: TypeRef,
  at: { value: JSONValue; set: FieldSet },
): Value {
  if (Array.isArray(at.value)) {
    if (at.value.length === 0) return undefined;
    return removeFromList(resolver, ref, { value: at.value, set: at.set });
  }
  if (isJSONObject(at.value)) {
    if (Object.keys(at.value).length === 0) return undefined;
    return removeFromMap(resolver, ref, { value: at.value, set: at.set });
  }
  return at.value;
}
