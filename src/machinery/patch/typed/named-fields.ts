// Set.EnsureNamedFieldsAreMembers: a set that reaches into a struct field also owns the field
// itself, so pruning what a manager stopped applying removes the emptied struct too. Levels
// that already have all their struct fields as members are shared with the input.
import type { FieldSet } from '../fieldpath/set.js';
import { childType, typeOf, type SchemaResolver, type TypeRef } from './type-node.js';

export function ensureNamedFieldsAreMembers(resolver: SchemaResolver, ref: TypeRef, set: FieldSet): FieldSet {
  const node = typeOf(resolver, ref, undefined);
  return set.withChildren(({ pe, member, child }) => {
    const named = pe.kind === 'field' && node.kind === 'map' && node.fieldTypes.has(pe.name);
    const type = childType(node, pe);
    return {
      member: member || named,
      child: type === undefined ? child : ensureNamedFieldsAreMembers(resolver, type, child),
    };
  });
}
