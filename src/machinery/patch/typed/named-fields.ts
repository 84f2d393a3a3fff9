// Set.EnsureNamedFieldsAreMembers: a set that reaches into a struct field also owns the field
// itself, so pruning what a manager stopped applying removes the emptied struct too.

import { FieldSet } from '../fieldpath/set.js';
import { childType, typeOf, type SchemaResolver, type TypeRef } from './type-node.js';

export function ensureNamedFieldsAreMembers(resolver: SchemaResolver, ref: TypeRef, set: FieldSet): FieldSet {
  const out = new FieldSet();
  for (const pe of set.members()) out.insertMember(pe);
  const node = typeOf(resolver, ref, undefined);
  for (const { pe, set: child } of set.children()) {
    if (pe.kind === 'field' && node.kind === 'map' && Object.hasOwn(node.fields, pe.name))
      out.insertMember(pe);
    const type = childType(node, pe);
    out.insertChild(pe, type === undefined ? child : ensureNamedFieldsAreMembers(resolver, type, child));
  }
  return out;
}
