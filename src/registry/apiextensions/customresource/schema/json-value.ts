// Helpers over decoded JSON values shared by pruning, defaulting and validation of custom resources.
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { memberOf } from '../../../../machinery/json/set-member.js';

/** A decoded JSON object. */
export type JSONObject = Record<string, unknown>;

export function isJSONObject(value: unknown): value is JSONObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON type name kube-openapi infers for a decoded value; whole numbers are integers. */
export function jsonTypeOf(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      return Number.isInteger(value) ? 'integer' : 'number';
    case 'bigint':
      return 'integer';
    case 'object':
      return 'object';
    case 'undefined':
    case 'function':
    case 'symbol':
      break;
  }
  return '';
}

/** The JSON text of a value with object keys sorted, as Go's encoding/json writes maps. */
export function canonicalJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJSON).join(',')}]`;
  if (isJSONObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJSON(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Equality of two JSON values regardless of object key order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return canonicalJSON(a) === canonicalJSON(b);
}

/**
 * The schema of property `key`, if the schema declares one: its own member only, so that a key such
 * as `constructor` or `toString` is not taken for a property from Object.prototype.
 */
export function propertyOf<S extends { properties?: Record<string, S> }>(s: S, key: string): S | undefined {
  return s.properties === undefined ? undefined : memberOf(s.properties, key);
}

/** Whether `holds` is true of a schema directly below `s`: its items, additionalProperties or properties. */
export function belowSchema(s: JSONSchemaProps, holds: (child: JSONSchemaProps) => boolean): boolean {
  const items = itemsSchema(s.items);
  const additional = additionalSchema(s.additionalProperties);
  return (
    (items !== undefined && holds(items)) ||
    (additional !== undefined && holds(additional)) ||
    Object.values(s.properties ?? {}).some(holds)
  );
}

/**
 * Whether `holds` is true of a schema or of any below it where the structural walks go (items,
 * additionalProperties, properties), known once per schema object: a definition's schemas live as
 * long as the definition, and a walk skips the branches where the answer is no.
 */
export function anywhereInSchema(holds: (s: JSONSchemaProps) => boolean): (s: JSONSchemaProps) => boolean {
  const known = new WeakMap<JSONSchemaProps, boolean>();
  const test = (s: JSONSchemaProps): boolean => {
    let answer = known.get(s);
    if (answer === undefined) {
      answer = holds(s) || belowSchema(s, test);
      known.set(s, answer);
    }
    return answer;
  };
  return test;
}

/** The schema of additionalProperties when it is a schema (not a bool). */
export function additionalSchema<S extends object>(ap: S | boolean | undefined): S | undefined {
  return typeof ap === 'object' ? ap : undefined;
}

/** The single schema of `items` (a list of schemas is refused by CRD validation and ignored here). */
export function itemsSchema<S extends object>(items: S | S[] | undefined): S | undefined {
  return items === undefined || Array.isArray(items) ? undefined : items;
}
