// Compiles a definition's protobuf table and its structural schema into a decoding plan: for
// each field number, the JSON name, whether it repeats or is a map, and how one value is read.
// The schema says what a value is; the table says where it travels and whether Go holds it by pointer.
import type { Scheme } from '../../api/scheme.js';
import {
  isProtobufCodec,
  type ProtobufCodec,
  type ProtobufField,
  type ProtobufMessage,
} from '../../api/schema/protobuf.js';
import type { Schema } from '../../api/schema/types.js';
import type { ScalarType } from './scalars.js';

export type ValuePlan =
  | { readonly kind: 'scalar'; readonly type: ScalarType }
  | { readonly kind: 'message'; readonly definition: string }
  | { readonly kind: 'codec'; readonly codec: ProtobufCodec };

export interface FieldPlan {
  readonly json: string;
  readonly goName: string;
  /** Maps travel as repeated {key = 1, value = 2} entries; `value` is then the map's value. */
  readonly shape: 'single' | 'repeated' | 'map';
  readonly value: ValuePlan;
  /** Kept in JSON when zero: a Go pointer, or a field without `omitempty` (required in the schema). */
  readonly keepZero: boolean;
  /** An embedded struct whose message's fields land in the parent object (ProtobufField.inline). */
  readonly inline?: boolean;
}

export interface MessagePlan {
  /** The Go type name kube's errors quote. */
  readonly name: string;
  readonly fields: ReadonlyMap<number, FieldPlan>;
}

// Lower-case Go initialisms a JSON name may start with (`apiVersion` is Go's APIVersion).
const initialisms = [
  'api',
  'uid',
  'ip',
  'id',
  'tls',
  'url',
  'uri',
  'dns',
  'cidr',
  'http',
  'tcp',
  'udp',
  'sctp',
  'cpu',
  'os',
];

/** The Go field name behind a JSON name, for error texts; tables override where this guesses wrong. */
export function guessGoName(json: string, ref: string | undefined): string {
  // Embedded ObjectMeta / ListMeta.
  if (json === 'metadata' && ref !== undefined) return ref.slice(ref.lastIndexOf('.') + 1);
  for (const word of initialisms) {
    if (!json.startsWith(word)) continue;
    const next = json.charAt(word.length);
    if (next === '' || (next >= 'A' && next <= 'Z') || (next === 's' && json.length === word.length + 1)) {
      return word.toUpperCase() + json.slice(word.length);
    }
  }
  return json.charAt(0).toUpperCase() + json.slice(1);
}

function scalarOf(schema: Schema): ScalarType | undefined {
  switch (schema.type) {
    case 'string':
      return schema.format === 'byte' ? 'bytes' : 'string';
    case 'integer':
      return schema.format === 'int32' ? 'int32' : 'int64';
    case 'boolean':
      return 'bool';
    case 'number':
      return schema.format === 'float' ? 'float' : 'double';
    case 'object':
    case 'array':
    case undefined:
      return undefined;
  }
}

function elementPlan(scheme: Scheme, schema: Schema, where: string): ValuePlan {
  if (schema.$ref !== undefined) {
    const info = scheme.protobuf(schema.$ref);
    if (info === undefined) throw new Error(`${where}: ${schema.$ref} has no protobuf table`);
    return isProtobufCodec(info)
      ? { kind: 'codec', codec: info }
      : { kind: 'message', definition: schema.$ref };
  }
  if (schema['x-kubernetes-int-or-string'] === true) return { kind: 'codec', codec: 'intOrString' };
  const type = scalarOf(schema);
  if (type === undefined)
    throw new Error(`${where}: no protobuf form for a ${schema.type ?? 'untyped'} schema`);
  return { kind: 'scalar', type };
}

function fieldPlan(
  scheme: Scheme,
  schema: Schema,
  ctx: { json: string; spec: ProtobufField; required: boolean; where: string },
): FieldPlan {
  const { json, spec, where } = ctx;
  const isMap = schema.type === 'object' && typeof schema.additionalProperties === 'object';
  const shape = schema.type === 'array' ? 'repeated' : isMap ? 'map' : 'single';
  const element =
    shape === 'repeated' ? schema.items : isMap ? (schema.additionalProperties as Schema) : schema;
  if (element === undefined) throw new Error(`${where}: an array without items`);
  const value: ValuePlan =
    spec.codec === undefined ? elementPlan(scheme, element, where) : { kind: 'codec', codec: spec.codec };
  const goName = spec.goName ?? guessGoName(json, schema.$ref);
  return { json, goName, shape, value, keepZero: spec.pointer === true || ctx.required };
}

/** The plan of a definition with a protobuf message table; throws when the tables are incomplete. */
export function compileMessagePlan(scheme: Scheme, definition: string): MessagePlan {
  const table: ProtobufMessage | ProtobufCodec | undefined = scheme.protobuf(definition);
  const schema = scheme.definition(definition);
  if (table === undefined || isProtobufCodec(table) || schema === undefined) {
    throw new Error(`${definition} has no protobuf message table or no schema`);
  }
  const required = new Set(schema.required ?? []);
  const fields = new Map<number, FieldPlan>();
  for (const [json, entry] of Object.entries(table)) {
    const spec: ProtobufField = typeof entry === 'number' ? { field: entry } : entry;
    const where = `${definition}.${json}`;
    if (fields.has(spec.field)) throw new Error(`${where}: field number ${spec.field} used twice`);
    if (spec.inline !== undefined) {
      const value: ValuePlan = { kind: 'message', definition: spec.inline };
      fields.set(spec.field, {
        json,
        goName: spec.goName ?? json,
        shape: 'single',
        value,
        keepZero: true,
        inline: true,
      });
      continue;
    }
    const property = schema.properties?.[json];
    if (property === undefined) throw new Error(`${where}: not a property of the schema`);
    fields.set(spec.field, fieldPlan(scheme, property, { json, spec, required: required.has(json), where }));
  }
  return { name: definition.slice(definition.lastIndexOf('.') + 1), fields };
}
