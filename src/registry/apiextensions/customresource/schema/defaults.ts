// Structural defaulting of custom resources, as apiextensions-apiserver
// pkg/apiserver/schema/defaulting/algorithm.go and prunenulls.go.
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { deepCopyJSON } from '../../../../machinery/json/deep-copy.js';
import { additionalSchema, anywhereInSchema, isJSONObject, itemsSchema, propertyOf } from './json-value.js';

// A null where the schema forbids null and has a default to put instead.
function isNonNullableNull(x: unknown, s: JSONSchemaProps | undefined): s is JSONSchemaProps {
  return x === null && s !== undefined && s.nullable !== true && s.default !== undefined;
}

/**
 * Sets, in place, the defaults of the schema: absent properties (and nulls of non-nullable ones) get a
 * deep copy of their default, recursively through properties, additionalProperties and array items.
 * Defaults just set are defaulted further too. Values of the wrong type are left alone.
 */
export function applyDefaults(obj: Record<string, unknown>, schema: JSONSchemaProps): void {
  defaultValue(obj, schema);
}

/** Whether a schema has a default anywhere defaulting looks; a branch without one is not walked. */
export const holdsDefaults = anywhereInSchema((s) => s.default !== undefined);

function defaultValue(x: unknown, s: JSONSchemaProps | undefined): void {
  if (s === undefined || !holdsDefaults(s)) return;
  if (Array.isArray(x)) {
    const items = itemsSchema(s.items);
    for (let i = 0; i < x.length; i++) {
      if (isNonNullableNull(x[i], items)) x[i] = deepCopyJSON(items.default);
      defaultValue(x[i], items);
    }
    return;
  }
  if (!isJSONObject(x)) return;
  for (const [k, prop] of Object.entries(s.properties ?? {})) {
    if (prop.default === undefined) continue;
    if (!(k in x) || isNonNullableNull(x[k], prop)) x[k] = deepCopyJSON(prop.default);
  }
  const additional = additionalSchema(s.additionalProperties);
  for (const k of Object.keys(x)) {
    const prop = propertyOf(s, k);
    if (prop !== undefined) {
      defaultValue(x[k], prop);
    } else if (additional !== undefined) {
      if (isNonNullableNull(x[k], additional)) x[k] = deepCopyJSON(additional.default);
      defaultValue(x[k], additional);
    }
  }
}

/**
 * Removes, in place, nulls of non-nullable object fields that have no default (kube's
 * PruneNonNullableNullsWithoutDefaults, run after pruning); nulls in arrays are kept.
 */
export function pruneNonNullableNullsWithoutDefaults(
  obj: Record<string, unknown>,
  schema: JSONSchemaProps,
): void {
  pruneNulls(obj, schema);
}

function pruneNulls(x: unknown, s: JSONSchemaProps | undefined): void {
  if (s === undefined) return;
  if (Array.isArray(x)) {
    const items = itemsSchema(s.items);
    for (const v of x) pruneNulls(v, items);
    return;
  }
  if (!isJSONObject(x)) return;
  const additional = additionalSchema(s.additionalProperties);
  for (const [k, v] of Object.entries(x)) {
    const prop = propertyOf(s, k) ?? additional;
    if (prop === undefined) continue;
    if (v === null && prop.nullable !== true && prop.default === undefined) {
      Reflect.deleteProperty(x, k);
      continue;
    }
    pruneNulls(v, prop);
  }
}
