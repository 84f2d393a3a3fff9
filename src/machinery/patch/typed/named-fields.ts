// Set.EnsureNamedFieldsAreMembers: a set that reaches into a struct field also owns the field
// itself, so pruning what a manager stopped applying removes the emptied struct too. Levels
// that already have all their struct fields as members are shared with the input.
import type { FieldSet, FieldSetEntry } from '../fieldpath/set.js';
import { childType, typeOf, type SchemaResolver, type TypeNode, type TypeRef } from './type-node.js';

interface Level {
  readonly resolver: SchemaResolver;
  readonly node: TypeNode;
}

function nameFields(
  e: FieldSetEntry & { child: FieldSet },
  level: Level,
): { member: boolean; child: FieldSet } {
  const { node } = level;
  const named = e.pe.kind === 'field' && node.kind === 'map' && node.fieldTypes.has(e.pe.name);
  const type = childType(node, e.pe);
  return {
    member: e.member || named,
    child: type === undefined ? e.child : ensureNamedFieldsAreMembers(level.resolver, type, e.child),
  };
}

export function ensureNamedFieldsAreMembers(resolver: SchemaResolver, ref: TypeRef, set: FieldSet): FieldSet {
  return set.withChildren(nameFields, { resolver, node: typeOf(resolver, ref, undefined) });
}
