// What a schema means for merging (structured-merge-diff schema atoms): scalars, maps (structs
// with named fields and/or an element type), lists (atomic, set or associative by keys), and
// "deduced" values whose shape is taken from the value itself.
import { goOmits, type GoOmitEmptyTable } from '../../../api/schema/go-omit-empty.js';
import type { ProtobufCodec, ProtobufMessage } from '../../../api/schema/protobuf.js';
import type { Schema } from '../../../api/schema/types.js';
import { goZeroMember } from '../../json/go-zero-members.js';
import { memberOf } from '../../json/set-member.js';
import { isJSONObject, isScalar, type JSONObject, type JSONValue } from '../json.js';
import { fieldElement, keyElement, type KeyField, type PathElement } from '../fieldpath/path-element.js';

/** Follows `$ref`s (the Scheme satisfies it). */
export interface SchemaResolver {
  resolve(schema: Schema): Schema;
  /** The members a built-in definition's Go struct leaves out when they hold their zero value. */
  goOmitEmpty?(definition: string): GoOmitEmptyTable | undefined;
  /** A definition by name and its protobuf table: with them, the Go zeros of a struct's members. */
  definition?(name: string): Schema | undefined;
  protobuf?(definition: string): ProtobufMessage | ProtobufCodec | undefined;
}

/** A schema, or 'deduced' where the schema says nothing (preserve-unknown-fields, free-form). */
export type TypeRef = Schema | 'deduced';

export type MapNode = {
  readonly kind: 'map';
  readonly fields: Readonly<Record<string, Schema>>;
  /** The type of keys that are not named fields; undefined when there may be none. */
  readonly element: TypeRef | undefined;
  readonly atomic: boolean;
  /** Whether it has named fields: a Go struct, which is never absent, only empty. */
  readonly isStruct: boolean;
  /** `fields` for lookups by name. */
  readonly fieldTypes: ReadonlyMap<string, Schema>;
  /** A Go struct's omitempty members (go-omit-empty.ts); undefined for other maps. */
  readonly omitEmpty: GoOmitEmptyTable | undefined;
  /**
   * A Go struct's members that are structs held by value (`default: {}` in kube's OpenAPI): never
   * nil, so present, empty, wherever the struct holding them is; undefined when it has none.
   */
  readonly byValue: ReadonlySet<string> | undefined;
  /**
   * A Go struct's other members without omitempty, by JSON name, with the zero Go holds when memory
   * lacks them (go-zero-members.ts: null for a nil or a zero time, "" or 0 or false for a scalar);
   * undefined when the resolver cannot tell them.
   */
  readonly zeros: Readonly<Record<string, JSONValue>> | undefined;
};
export type ListNode = {
  readonly kind: 'list';
  readonly element: TypeRef;
  readonly listType: 'atomic' | 'set' | 'map';
  readonly keys: readonly string[];
};
export type TypeNode = { readonly kind: 'scalar' } | MapNode | ListNode;

const scalar: TypeNode = { kind: 'scalar' };
const deducedMap: MapNode = {
  kind: 'map',
  fields: {},
  element: 'deduced',
  atomic: false,
  isStruct: false,
  fieldTypes: new Map(),
  omitEmpty: undefined,
  byValue: undefined,
  zeros: undefined,
};
const deducedList: ListNode = { kind: 'list', element: 'deduced', listType: 'atomic', keys: [] };

const hasNoKeys = (v: object): boolean => {
  for (const _ in v) return false;
  return true;
};

function deduce(value: unknown): TypeNode {
  if (isJSONObject(value)) return deducedMap;
  if (Array.isArray(value)) return deducedList;
  return scalar;
}

function listNode(s: Schema): ListNode {
  const strategies = (s['x-kubernetes-patch-strategy'] ?? '').split(',');
  const mergeKey = s['x-kubernetes-patch-merge-key'];
  let listType = s['x-kubernetes-list-type'];
  if (listType === undefined)
    listType = strategies.includes('merge') ? (mergeKey === undefined ? 'set' : 'map') : 'atomic';
  const keys = s['x-kubernetes-list-map-keys'] ?? (mergeKey === undefined ? [] : [mergeKey]);
  return { kind: 'list', element: s.items ?? 'deduced', listType, keys };
}

/**
 * The members of a Go struct held by value: structs defaulting to `{}` that its omitempty table does
 * not name (a pointer kube's defaulting sets to an empty struct, `securityContext`, is named `nil`).
 */
function structsByValue(
  resolver: SchemaResolver,
  properties: Readonly<Record<string, Schema>>,
  omitEmpty: GoOmitEmptyTable,
): ReadonlySet<string> | undefined {
  let out: Set<string> | undefined;
  for (const [name, member] of Object.entries(properties)) {
    const d: unknown = member.default;
    if (member.$ref === undefined || !isJSONObject(d) || !hasNoKeys(d) || omitEmpty[name] !== undefined)
      continue;
    if (resolver.resolve(member).properties === undefined) continue;
    (out ??= new Set()).add(name);
  }
  return out;
}

/** The zeros of a Go struct's members without omitempty other than structs (MapNode.zeros). */
function goZeros(
  resolver: SchemaResolver,
  definition: string,
  s: Schema,
): Record<string, JSONValue> | undefined {
  if (
    resolver.definition === undefined ||
    resolver.protobuf === undefined ||
    resolver.goOmitEmpty === undefined
  )
    return undefined;
  const source = {
    definition: (name: string) => resolver.definition?.(name),
    protobuf: (name: string) => resolver.protobuf?.(name),
    goOmitEmpty: (name: string) => resolver.goOmitEmpty?.(name),
  };
  const omit = source.goOmitEmpty(definition);
  let out: Record<string, JSONValue> | undefined;
  for (const [name, member] of Object.entries(s.properties ?? {})) {
    const zero = goZeroMember(source, member, { definition, name, omit: omit?.[name] });
    if (zero === undefined || zero.kind === 'struct') continue;
    if (name === 'kind' || name === 'apiVersion') continue;
    (out ??= Object.create(null) as Record<string, JSONValue>)[name] =
      zero.kind === 'time' ? null : (zero.value as JSONValue);
  }
  return out;
}

function mapNode(
  resolver: SchemaResolver,
  s: Schema,
  at: { readonly definition: string | undefined; readonly omitEmpty: GoOmitEmptyTable | undefined },
): MapNode {
  const { definition, omitEmpty } = at;
  const ap = s.additionalProperties;
  const hasFields = s.properties !== undefined && Object.keys(s.properties).length > 0;
  let element: TypeRef | undefined;
  if (typeof ap === 'object') element = ap;
  else if (ap === true || s['x-kubernetes-preserve-unknown-fields'] === true || !hasFields)
    element = 'deduced';
  return {
    kind: 'map',
    fields: s.properties ?? {},
    element,
    atomic: s['x-kubernetes-map-type'] === 'atomic',
    isStruct: Object.keys(s.properties ?? {}).length > 0,
    fieldTypes: new Map(Object.entries(s.properties ?? {})),
    omitEmpty,
    byValue: omitEmpty === undefined ? undefined : structsByValue(resolver, s.properties ?? {}, omitEmpty),
    zeros: omitEmpty === undefined || definition === undefined ? undefined : goZeros(resolver, definition, s),
  };
}

function compile(resolver: SchemaResolver, ref: Schema): TypeNode | undefined {
  const s = resolver.resolve(ref);
  if (s['x-kubernetes-int-or-string'] === true) return scalar;
  if (s.type === 'array') return listNode(s);
  if (s.type === 'object' || s.properties !== undefined || s.additionalProperties !== undefined)
    return mapNode(resolver, s, {
      definition: ref.$ref,
      omitEmpty: ref.$ref === undefined ? undefined : resolver.goOmitEmpty?.(ref.$ref),
    });
  if (s.type === undefined) return undefined;
  return scalar;
}

/**
 * The nodes of each resolver's schemas, built on first use: walkers ask for a node at every value
 * they visit. Schemas are never changed once a resolver serves them. `null` marks a schema that
 * says nothing, whose node depends on the value.
 */
const compiled = new WeakMap<SchemaResolver, WeakMap<Schema, TypeNode | null>>();
/** The last resolver asked for and its nodes: a walk asks with one resolver thousands of times. */
let last: { resolver: SchemaResolver; nodes: WeakMap<Schema, TypeNode | null> } | undefined;

function nodesOf(resolver: SchemaResolver): WeakMap<Schema, TypeNode | null> {
  if (last?.resolver === resolver) return last.nodes;
  let nodes = compiled.get(resolver);
  if (nodes === undefined) {
    nodes = new WeakMap();
    compiled.set(resolver, nodes);
  }
  last = { resolver, nodes };
  return nodes;
}

/** The node a type reference stands for; deduced types take their shape from `value`. */
export function typeOf(resolver: SchemaResolver, ref: TypeRef, value: unknown): TypeNode {
  if (ref === 'deduced') return deduce(value);
  const nodes = nodesOf(resolver);
  let node = nodes.get(ref);
  if (node === undefined) {
    node = compile(resolver, ref) ?? null;
    nodes.set(ref, node);
  }
  return node ?? deduce(value);
}

/**
 * Whether member `key` of a Go struct holding `v` is absent from the typed value kube's field
 * manager computes an Update's fields from (the object converted from its Go struct, where an
 * omitempty member holding its zero value, an empty list or map included, is left out). Zero values
 * are rare, so they are looked for before the table.
 */
export function goLeavesOut(node: MapNode, key: string, v: JSONValue | undefined): boolean {
  const omit = node.omitEmpty;
  if (omit === undefined || v === undefined) return false;
  if (typeof v === 'object') {
    if (v !== null && (Array.isArray(v) ? v.length > 0 : !hasNoKeys(v))) return false;
  } else if (v !== '' && v !== 0 && v !== false) return false;
  const cls = omit[key];
  return cls !== undefined && goOmits(cls, v);
}

/**
 * A struct held by value that a present Go struct lacks in memory: Go has it, empty (its own such
 * members empty in turn), so compares take it as `{}`. Never written to.
 */
export const goStructByValue: JSONObject = Object.freeze({});

/**
 * What a present Go struct holds for member `key` that memory lacks: an empty struct held by value,
 * the zero of a member without omitempty (null, "", 0, false), or nothing (undefined).
 */
export function goZeroOf(node: MapNode, key: string): JSONValue | undefined {
  if (node.byValue?.has(key) === true) return goStructByValue;
  return node.zeros?.[key];
}

/** The type of a map's member `key`, or undefined when the map does not declare it. */
export function memberType(node: MapNode, key: string): TypeRef | undefined {
  return node.fieldTypes.get(key) ?? node.element;
}

/** A field or list problem, with the path it was found at (`.spec.ports: element 0: ...`). */
export class TypedError extends Error {}

function keyFieldValue(
  item: Record<string, JSONValue>,
  key: string,
  itemSchema: Schema | undefined,
): JSONValue {
  // Own members only: a key field named `constructor` is the item's, never its prototype's.
  const v = memberOf(item, key);
  if (v !== undefined) return v;
  const properties = itemSchema?.properties;
  const dflt = (properties === undefined ? undefined : memberOf(properties, key))?.default as
    JSONValue | undefined;
  if (dflt !== undefined) return dflt;
  throw new TypedError(
    `associative list with keys has an element that omits key field ${JSON.stringify(key)} (and doesn't have default value)`,
  );
}

/** Each list node's resolved item schema, for key defaults; a node belongs to one resolver. */
const itemSchemas = new WeakMap<ListNode, Schema>();

function itemSchemaOf(resolver: SchemaResolver, node: ListNode): Schema | undefined {
  if (node.element === 'deduced') return undefined;
  let schema = itemSchemas.get(node);
  if (schema === undefined) {
    schema = resolver.resolve(node.element);
    itemSchemas.set(node, schema);
  }
  return schema;
}

/** The path element of list item `index`: its keys, its value, or its index. */
export function listItemElement(
  resolver: SchemaResolver,
  node: ListNode,
  item: { value: JSONValue; index: number },
): PathElement {
  const { value, index } = item;
  if (node.listType === 'set') return { kind: 'value', value };
  if (node.listType === 'atomic') return { kind: 'index', index };
  if (!isJSONObject(value))
    throw new TypedError(`element ${index}: associative list with keys has an element that is not a map`);
  if (node.keys.length === 0)
    throw new TypedError(`element ${index}: associative list without keys has an element that's a map type`);
  const itemSchema = itemSchemaOf(resolver, node);
  const fields: KeyField[] = [];
  for (const key of node.keys) {
    try {
      const v = keyFieldValue(value, key, itemSchema);
      if (!isScalar(v)) throw new TypedError(`key field ${JSON.stringify(key)} is not a scalar`);
      fields.push({ name: key, value: v });
    } catch (err) {
      if (err instanceof TypedError) throw new TypedError(`element ${index}: ${err.message}`);
      throw err;
    }
  }
  return keyElement(fields);
}

/** The type of the child reached through `pe` from a node, for walking a field set. */
export function childType(node: TypeNode, pe: PathElement): TypeRef | undefined {
  if (pe.kind === 'field') return node.kind === 'map' ? memberType(node, pe.name) : undefined;
  return node.kind === 'list' ? node.element : undefined;
}

export { fieldElement };
