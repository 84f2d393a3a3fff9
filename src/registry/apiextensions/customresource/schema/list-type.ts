// Uniqueness of x-kubernetes-list-type set and map lists, as apiextensions-apiserver
// pkg/apiserver/schema/listtype/validation.go.
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import {
  FieldError,
  newPath,
  type ErrorList,
  type FieldPath,
} from '../../../../machinery/validation/index.js';
import {
  additionalSchema,
  anywhereInSchema,
  canonicalJSON,
  isJSONObject,
  itemsSchema,
  type JSONObject,
  propertyOf,
} from './json-value.js';

// A key field that is absent differs from one that is null.
const unspecified = Symbol('unspecifiedKeyValue');

function keyOf(value: unknown): string {
  return value === unspecified ? '\u0000unspecified' : canonicalJSON(value);
}

/** The indices where a value appears for the second time (later repeats are not reported again). */
function nonUniqueIndices(values: readonly unknown[]): number[] {
  const seen = new Map<string, number>();
  const out: number[] = [];
  values.forEach((v, i) => {
    const key = keyOf(v);
    const times = seen.get(key) ?? 0;
    seen.set(key, times + 1);
    if (times === 1) out.push(i);
  });
  return out;
}

function validateListMap(path: FieldPath, s: JSONSchemaProps, list: unknown[]): ErrorList {
  for (const [i, x] of list.entries()) {
    if (x !== null && !isJSONObject(x)) {
      return [FieldError.invalid(path.index(i), x, 'must be an object for an array of list-type map')];
    }
  }
  if (list.length <= 1) return [];
  const keyFields = s['x-kubernetes-list-map-keys'] ?? [];
  if (keyFields.length === 1) {
    const field = keyFields[0] ?? '';
    const keys = list.map((x) => (isJSONObject(x) && Object.hasOwn(x, field) ? x[field] : unspecified));
    return nonUniqueIndices(keys).map((i) => {
      const key = keys[i];
      return FieldError.duplicate(path.index(i), key === unspecified ? {} : { [field]: key });
    });
  }
  const keys = list.map((x) => {
    const key: JSONObject = {};
    if (!isJSONObject(x)) return key;
    for (const field of keyFields) if (Object.hasOwn(x, field)) key[field] = x[field];
    return key;
  });
  return nonUniqueIndices(keys).map((i) => FieldError.duplicate(path.index(i), keys[i]));
}

function validateArray(path: FieldPath, s: JSONSchemaProps, list: unknown[]): ErrorList {
  const errs: ErrorList = [];
  const listType = s['x-kubernetes-list-type'];
  if (listType === 'set') {
    for (const i of nonUniqueIndices(list)) errs.push(FieldError.duplicate(path.index(i), list[i]));
  } else if (listType === 'map') {
    errs.push(...validateListMap(path, s, list));
  }
  const items = itemsSchema(s.items);
  if (items !== undefined) {
    list.forEach((v, i) => {
      errs.push(...validateValue(path.index(i), items, v));
    });
  }
  return errs;
}

// Whether a schema has a set or map list anywhere under it: most have none, or a few in one branch.
const holdsListTypes = anywhereInSchema((s) => {
  const type = s['x-kubernetes-list-type'];
  return type === 'set' || type === 'map';
});

function validateValue(path: FieldPath, s: JSONSchemaProps, value: unknown): ErrorList {
  if (!holdsListTypes(s)) return [];
  if (Array.isArray(value)) return validateArray(path, s, value);
  if (isJSONObject(value)) return validateMapValue(path, s, value);
  return [];
}

function validateMapValue(path: FieldPath | undefined, s: JSONSchemaProps, obj: JSONObject): ErrorList {
  const errs: ErrorList = [];
  const additional = additionalSchema(s.additionalProperties);
  const child = (name: string): FieldPath => path?.child(name) ?? newPath(name);
  if (additional !== undefined) {
    for (const [k, v] of Object.entries(obj)) {
      errs.push(...validateValue(path?.key(k) ?? newPath(k), additional, v));
    }
  }
  for (const [k, v] of Object.entries(obj)) {
    const prop = propertyOf(s, k);
    if (prop !== undefined) errs.push(...validateValue(child(k), prop, v));
  }
  return errs;
}

/** Duplicate errors of set and map lists anywhere in a custom resource. */
export function validateListSetsAndMaps(obj: JSONObject, schema: JSONSchemaProps): ErrorList {
  return holdsListTypes(schema) ? validateMapValue(undefined, schema, obj) : [];
}
