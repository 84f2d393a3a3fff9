// Patch strategy and merge key of a field, read from the kind's schema the way kube reads its Go
// struct tags (strategicpatch/meta.go): `x-kubernetes-patch-strategy` and `-merge-key`.
import type { Schema } from '../../../api/schema/types.js';
import type { SchemaResolver } from '../typed/type-node.js';

export interface PatchMeta {
  /** The strategy other than retainKeys ('merge', 'replace' or ''). */
  readonly strategy: string;
  readonly retainKeys: boolean;
  readonly mergeKey: string;
}

/** Where the patch is in the schema; undefined where the schema says nothing. */
export interface SchemaPosition {
  readonly resolver: SchemaResolver;
  readonly schema: Schema | undefined;
}

const noMeta: PatchMeta = { strategy: '', retainKeys: false, mergeKey: '' };

function metaOf(field: Schema): PatchMeta {
  const strategies = (field['x-kubernetes-patch-strategy'] ?? '').split(',').filter((s) => s !== '');
  return {
    strategy: strategies.find((s) => s !== 'retainKeys') ?? '',
    retainKeys: strategies.includes('retainKeys'),
    mergeKey: field['x-kubernetes-patch-merge-key'] ?? '',
  };
}

function fieldSchema(pos: SchemaPosition, key: string): Schema | undefined {
  if (pos.schema === undefined) return undefined;
  const s = pos.resolver.resolve(pos.schema);
  const prop = s.properties?.[key];
  if (prop !== undefined) return prop;
  return typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
}

/** The member `key` of a struct or map: its own position and patch metadata. */
export function lookupField(pos: SchemaPosition, key: string): { pos: SchemaPosition; meta: PatchMeta } {
  const field = fieldSchema(pos, key);
  if (field === undefined) return { pos: { resolver: pos.resolver, schema: undefined }, meta: noMeta };
  return {
    pos: { resolver: pos.resolver, schema: field },
    meta: metaOf({ ...pos.resolver.resolve(field), ...field }),
  };
}

/** The list member `key`: the position of its items and the list's patch metadata. */
export function lookupSlice(pos: SchemaPosition, key: string): { pos: SchemaPosition; meta: PatchMeta } {
  const { pos: fieldPos, meta } = lookupField(pos, key);
  const items = fieldPos.schema === undefined ? undefined : pos.resolver.resolve(fieldPos.schema).items;
  return { pos: { resolver: pos.resolver, schema: items }, meta };
}
