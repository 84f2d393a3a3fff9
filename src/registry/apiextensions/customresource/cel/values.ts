// Unstructured JSON to CEL values, typed by the structural schema (apiextensions-apiserver
// pkg/apiserver/schema/cel/values.go, UnstructuredToVal): integers are CEL ints (bigint), numbers
// doubles, int-or-string either, objects and maps CEL maps, arrays lists. Fields without a schema
// (x-kubernetes-preserve-unknown-fields) are converted by their JSON shape.
import type { CelInput } from '@bufbuild/cel';
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { memberOf } from '../../../../machinery/json/set-member.js';
import { withTypeAndObjectMeta } from './decl-type.js';
import { escapeName, propertyNames } from './escaping.js';
import {
  parseBase64,
  parseDate,
  parseDateTime,
  parseDuration,
  type SecondsAndNanos,
} from './format-values.js';
import type { ListKind } from './list-semantics.js';
import { loadedCel } from './load.js';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The schema of a property of an object node, or undefined when it has none. */
export function propertySchema(
  schema: JSONSchemaProps | undefined,
  key: string,
): JSONSchemaProps | undefined {
  const properties = schema?.properties;
  const prop = properties === undefined ? undefined : memberOf(properties, key);
  if (prop !== undefined) return prop;
  const additional = schema?.additionalProperties;
  return typeof additional === 'object' ? additional : undefined;
}

function itemSchema(schema: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  const items = schema?.items;
  return items === undefined || Array.isArray(items) ? undefined : items;
}

function number(value: number, schema: JSONSchemaProps | undefined): CelInput {
  if (schema?.type === 'number') return value;
  return Number.isInteger(value) ? BigInt(value) : value;
}

/**
 * A string of a format rules see as another type: a timestamp, a duration or bytes. One that does
 * not parse (kube's validation refuses it first) stays a string.
 */
function formatted(value: string, format: string): CelInput {
  const lib = loadedCel();
  if (lib === undefined) return value;
  let time: SecondsAndNanos | undefined;
  switch (format) {
    case 'date':
      time = parseDate(value);
      return time === undefined ? value : lib.timestamp(time.seconds, time.nanos);
    case 'date-time':
      time = parseDateTime(value);
      return time === undefined ? value : lib.timestamp(time.seconds, time.nanos);
    case 'duration':
      time = parseDuration(value);
      return time === undefined ? value : lib.duration(time.seconds, time.nanos);
    case 'byte':
      return parseBase64(value) ?? value;
    default:
      return value;
  }
}

/** How kube's CEL compares and concatenates the lists of a schema (list-semantics.ts). */
function listKind(schema: JSONSchemaProps | undefined): ListKind | undefined {
  switch (schema?.['x-kubernetes-list-type']) {
    case 'set':
      return { type: 'set' };
    case 'map':
      return {
        type: 'map',
        keys: (schema['x-kubernetes-list-map-keys'] ?? []).map((k) => escapeName(k) ?? k),
      };
    case 'atomic':
    case undefined:
      return undefined;
  }
}

/**
 * A converted list or object, marked when it is a set or map list or holds one: it is then a CEL
 * list or map already, so that CEL keeps this very value and its mark.
 */
function marking(value: CelInput[] | Map<string, CelInput>, kind: ListKind | undefined): CelInput {
  const lib = loadedCel();
  if (lib === undefined) return value;
  const children: Iterable<unknown> = Array.isArray(value) ? value : value.values();
  let holds = false;
  for (const child of children) if (lib.unordered.marked(child)) holds = true;
  if (kind === undefined && !holds) return value;
  const wrapped = Array.isArray(value) ? lib.cel.celList(value) : lib.cel.celMap(value);
  if (kind !== undefined) lib.unordered.mark(wrapped, kind);
  else lib.unordered.markHolder(wrapped);
  return wrapped;
}

/** A JSON value as a CEL input value. */
export function toCel(value: unknown, schema: JSONSchemaProps | undefined): CelInput {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return number(value, schema);
  if (typeof value === 'string')
    return schema?.format === undefined ? value : formatted(value, schema.format);
  if (typeof value === 'boolean') return value;
  if (Array.isArray(value)) {
    const items = itemSchema(schema);
    return marking(
      value.map((v) => toCel(v, items)),
      listKind(schema),
    );
  }
  if (!isRecord(value)) return null;
  const out = new Map<string, CelInput>();
  const declared =
    schema?.['x-kubernetes-embedded-resource'] === true ? withTypeAndObjectMeta(schema) : schema;
  const properties = declared?.properties;
  if (properties !== undefined) {
    // An object's declared properties, under the names rules use for them (escaping.ts); a
    // member its schema does not declare, or set to null, is absent to rules, as in kube.
    const { escapedOf } = propertyNames(properties);
    for (const [k, v] of Object.entries(value)) {
      const name = escapedOf.get(k);
      const prop = name === undefined || v === null ? undefined : memberOf(properties, k);
      if (name !== undefined && prop !== undefined) out.set(name, toCel(v, prop));
    }
    return marking(out, undefined);
  }
  for (const [k, v] of Object.entries(value)) out.set(k, toCel(v, propertySchema(schema, k)));
  return marking(out, undefined);
}

/** The root object as rules see it: apiVersion, kind and only metadata.name and generateName. */
export function resourceRootToCel(obj: Record<string, unknown>, schema: JSONSchemaProps): CelInput {
  const meta = isRecord(obj['metadata']) ? obj['metadata'] : {};
  const visibleMeta: Record<string, unknown> = {};
  for (const k of ['name', 'generateName']) if (typeof meta[k] === 'string') visibleMeta[k] = meta[k];
  return toCel({ ...obj, metadata: visibleMeta }, withTypeAndObjectMeta(schema));
}
