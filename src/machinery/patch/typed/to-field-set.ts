// The set of fields a value sets (structured-merge-diff typed/tofieldset.go): every scalar, atomic
// value and list item, map entries that are not named fields, and empty or null members. Also
// reports what makes a value unfit to be applied: undeclared fields, malformed or duplicate items.
import { pathElementString, pathString, type Path, type PathElement } from '../fieldpath/path-element.js';
import { FieldSet } from '../fieldpath/set.js';
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

interface Walk {
  readonly resolver: SchemaResolver;
  readonly set: FieldSet;
  readonly errors: string[];
}

function visitList(w: Walk, node: ListNode, at: { value: JSONValue[]; path: Path }): void {
  const seen = new Set<string>();
  at.value.forEach((item, index) => {
    let pe: PathElement;
    try {
      pe = listItemElement(w.resolver, node, { value: item, index });
    } catch (err) {
      if (!(err instanceof TypedError)) throw err;
      w.errors.push(`${pathString(at.path)}: ${err.message}`);
      return;
    }
    const id = pathElementString(pe);
    if (seen.has(id)) w.errors.push(`${pathString(at.path)}: duplicate entries for key ${id}`);
    seen.add(id);
    const child = [...at.path, pe];
    walk(w, node.element, { value: item, path: child });
    w.set.insert(child);
  });
}

function visitMap(w: Walk, node: MapNode, at: { value: Record<string, JSONValue>; path: Path }): void {
  for (const [key, val] of Object.entries(at.value)) {
    const child: Path = [...at.path, { kind: 'field', name: key }];
    const type = memberType(node, key);
    if (type === undefined) {
      w.errors.push(`${pathString(child)}: field not declared in schema`);
      continue;
    }
    walk(w, type, { value: val, path: child });
    const emptyMap = isJSONObject(val) && Object.keys(val).length === 0;
    if (val === null || emptyMap || !Object.hasOwn(node.fields, key)) w.set.insert(child);
  }
}

function walk(w: Walk, ref: TypeRef, at: { value: JSONValue; path: Path }): void {
  const node = typeOf(w.resolver, ref, at.value);
  if (node.kind === 'list' && node.listType !== 'atomic' && Array.isArray(at.value)) {
    visitList(w, node, { value: at.value, path: at.path });
  } else if (node.kind === 'map' && !node.atomic && isJSONObject(at.value)) {
    visitMap(w, node, { value: at.value, path: at.path });
  } else {
    // Scalars, atomic values, and values that do not have their type's shape.
    w.set.insert(at.path);
  }
}

/** The fields `value` sets, and the problems that make it invalid for its type. */
export function toFieldSet(
  resolver: SchemaResolver,
  ref: TypeRef,
  value: JSONValue,
): { set: FieldSet; errors: string[] } {
  const w: Walk = { resolver, set: new FieldSet(), errors: [] };
  walk(w, ref, { value, path: [] });
  return { set: w.set, errors: w.errors };
}

/** ValidationErrors.Error(): one error as is, several under `errors:`. */
export function formatTypedErrors(errors: readonly string[]): string {
  if (errors.length === 1) return errors[0] ?? '';
  return ['errors:', ...errors.map((e) => `  ${e}`)].join('\n');
}
