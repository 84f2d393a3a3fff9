// What CEL knows of a structural schema node (k8s.io/apiserver pkg/cel/common/schemas.go,
// SchemaDeclType): its CEL type, the least bytes its JSON can take, and the most elements (items,
// properties, characters) it can hold. The cost estimator sizes lists, maps and strings by the
// latter; where a schema sets no maxItems, maxProperties or maxLength, the bound is what fits in
// the largest request kube accepts (3 MiB).
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { escapeName } from './escaping.js';

/** kube's largest request body (apiserver pkg/cel/limits.go, DefaultMaxRequestSizeBytes). */
export const maxRequestSizeBytes = 3 * 1024 * 1024;

// The fewest bytes some JSON values take (pkg/cel/limits.go).
const minStringSize = 2;
const minBoolSize = 4;
const minNumberSize = 1;
const minDurationSizeJSON = 3;
const jsonDateSize = 12;
const minDatetimeSizeJSON = 21;
const maxDurationSizeJSON = 32;
const maxDatetimeSizeJSON = 32;

export type DeclKind =
  | 'object'
  | 'map'
  | 'list'
  | 'string'
  | 'bytes'
  | 'duration'
  | 'timestamp'
  | 'bool'
  | 'double'
  | 'int'
  | 'dyn';

export interface DeclType {
  readonly kind: DeclKind;
  readonly minSerializedSize: number;
  /** The most items, properties or characters (for a string, maxLength × 4: bytes of UTF-8). */
  readonly maxElements: number;
  /** An object's fields by the names rules use for them (escaping.ts). */
  readonly fields?: ReadonlyMap<string, DeclType>;
  /** A list's items, a map's values. */
  readonly elem?: DeclType;
  /** A map's keys (strings, sized 0). */
  readonly key?: DeclType;
}

const simple = (kind: DeclKind, minSerializedSize: number, maxElements = 0): DeclType => ({
  kind,
  minSerializedSize,
  maxElements,
});

const boolType = simple('bool', minBoolSize);
const doubleType = simple('double', minNumberSize);
const intType = simple('int', minNumberSize);
// apiservercel.StringType: a map's key type.
const keyType = simple('string', minStringSize);

const zeroIfNegative = (n: number): number => (n < 0 ? 0 : n);

/** The longest string an unbounded string field can hold in a request (its quotes aside). */
function unboundedLength(s: JSONSchemaProps): number {
  if (s['x-kubernetes-int-or-string'] === true) return maxRequestSizeBytes - 2;
  switch (s.format) {
    case 'duration':
      return maxDurationSizeJSON;
    case 'date':
      return jsonDateSize;
    case 'date-time':
      return maxDatetimeSizeJSON;
    case undefined:
    default:
      return maxRequestSizeBytes - 2;
  }
}

/** The longest string enum value, in bytes. */
function longestEnum(values: readonly unknown[]): number {
  let longest = 0;
  for (const v of values) if (typeof v === 'string') longest = Math.max(longest, Buffer.byteLength(v));
  return longest;
}

function stringDecl(s: JSONSchemaProps): DeclType {
  switch (s.format) {
    case 'byte':
      return simple(
        'bytes',
        minStringSize,
        s.maxLength === undefined ? unboundedLength(s) : zeroIfNegative(s.maxLength),
      );
    case 'duration':
      return simple('duration', minDurationSizeJSON, unboundedLength(s));
    case 'date':
      return simple('timestamp', jsonDateSize, unboundedLength(s));
    case 'date-time':
      return simple('timestamp', minDatetimeSizeJSON, unboundedLength(s));
    case undefined:
    default:
      break;
  }
  if (s.maxLength !== undefined) return simple('string', minStringSize, zeroIfNegative(s.maxLength) * 4);
  const values = s.enum ?? [];
  return simple('string', minStringSize, values.length > 0 ? longestEnum(values) : unboundedLength(s));
}

const stringSchema: JSONSchemaProps = { type: 'string' };

/**
 * The schema as a resource's root sees it: kind and apiVersion, and metadata with only name and
 * generateName (unless the schema declares them so already).
 */
export function withTypeAndObjectMeta(s: JSONSchemaProps): JSONSchemaProps {
  let withMeta = metaSchemas.get(s);
  if (withMeta === undefined) {
    withMeta = addTypeAndObjectMeta(s);
    metaSchemas.set(s, withMeta);
  }
  return withMeta;
}

// Kept per schema node: rules of a resource's root see it at every evaluation.
const metaSchemas = new WeakMap<JSONSchemaProps, JSONSchemaProps>();

function addTypeAndObjectMeta(s: JSONSchemaProps): JSONSchemaProps {
  const props = s.properties;
  const meta = props?.['metadata'];
  if (
    props?.['kind']?.type === 'string' &&
    props['apiVersion']?.type === 'string' &&
    meta?.type === 'object' &&
    meta.properties?.['name']?.type === 'string' &&
    meta.properties['generateName']?.type === 'string'
  )
    return s;
  return {
    ...s,
    properties: {
      ...props,
      kind: stringSchema,
      apiVersion: stringSchema,
      metadata: { type: 'object', properties: { name: stringSchema, generateName: stringSchema } },
    },
  };
}

function objectDecl(s: JSONSchemaProps): DeclType {
  const fields = new Map<string, DeclType>();
  const required = new Set(s.required ?? []);
  let minSerializedSize = 2;
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    const field = schemaDeclType(prop, prop['x-kubernetes-embedded-resource'] === true);
    if (field === undefined) continue;
    const escaped = escapeName(name);
    if (escaped !== undefined) fields.set(escaped, field);
    if (required.has(name) && prop.default === undefined)
      minSerializedSize += Buffer.byteLength(name) + field.minSerializedSize + 4;
  }
  return { kind: 'object', minSerializedSize, maxElements: 0, fields };
}

/**
 * The declared type of a schema node, undefined where CEL sees nothing (an array without items, a
 * map whose values it cannot see, a node without a type). `resourceRoot` for the schema's root and
 * for embedded resources, which gain kind, apiVersion and metadata.
 */
export function schemaDeclType(s: JSONSchemaProps | undefined, resourceRoot: boolean): DeclType | undefined {
  if (s === undefined) return undefined;
  if (s['x-kubernetes-int-or-string'] === true) return simple('dyn', 1, maxRequestSizeBytes - 2);
  const node = resourceRoot ? withTypeAndObjectMeta(s) : s;
  switch (node.type) {
    case 'array': {
      const items = node.items;
      if (items === undefined || Array.isArray(items)) return undefined;
      const elem = schemaDeclType(items, items['x-kubernetes-embedded-resource'] === true);
      if (elem === undefined) return undefined;
      const maxElements =
        node.maxItems === undefined
          ? Math.floor((maxRequestSizeBytes - 2) / (elem.minSerializedSize + 1))
          : zeroIfNegative(node.maxItems);
      return { kind: 'list', minSerializedSize: 2, maxElements, elem };
    }
    case 'object': {
      const additional = node.additionalProperties;
      if (typeof additional === 'object') {
        const elem = schemaDeclType(additional, additional['x-kubernetes-embedded-resource'] === true);
        if (elem === undefined) return undefined;
        const maxElements =
          node.maxProperties === undefined
            ? Math.floor((maxRequestSizeBytes - 2) / (elem.minSerializedSize + 6))
            : zeroIfNegative(node.maxProperties);
        return { kind: 'map', minSerializedSize: 2, maxElements, elem, key: keyType };
      }
      return objectDecl(node);
    }
    case 'string':
      return stringDecl(node);
    case 'boolean':
      return boolType;
    case 'number':
      return doubleType;
    case 'integer':
      return intType;
    case undefined:
    default:
      return undefined;
  }
}

/**
 * How many times a node of this type can appear in one request under unbounded lists or maps
 * (compilation.go's maxCardinality): one comma between elements assumed.
 */
export function maxCardinality(decl: DeclType): bigint {
  return BigInt(Math.floor(maxRequestSizeBytes / (decl.minSerializedSize + 1)));
}

/**
 * apiextensions' sizeEstimator: {0, MaxElements} of the node a CEL field path leads to from `root`
 * (its first element names the variable; `@items`, `@values`, `@keys` step into lists and maps).
 */
export function declaredSize(
  root: DeclType | undefined,
  path: readonly string[] | undefined,
): { min: bigint; max: bigint } | undefined {
  if (path === undefined || path.length === 0) return undefined;
  let node = root;
  if (node === undefined) return undefined;
  for (const name of path.slice(1)) {
    if (name === '@items' || name === '@values') node = node.elem;
    else if (name === '@keys') node = node.key;
    else node = node.fields?.get(name);
    if (node === undefined) return undefined;
  }
  return { min: 0n, max: BigInt(node.maxElements) };
}
