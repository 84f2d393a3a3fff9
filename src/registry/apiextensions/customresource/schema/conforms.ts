// Whether a value passes kube-openapi's schema validation, without the errors: the verdict of
// openapi-validator.ts's validateSchema (no errors) at none of its cost. That validator builds a
// result, a path and a closure for every node it visits, which a valid object (nearly every one a
// client writes) pays for nothing; a value found not to conform is validated again for its errors.
// Each check here is one of the validator's, in its terms, and a generated-input test holds the two
// to the same verdict.
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { matchesFormat, supportedFormat } from './formats.js';
import {
  additionalSchema,
  isJSONObject,
  itemsSchema,
  jsonEqual,
  jsonTypeOf,
  propertyOf,
} from './json-value.js';
import { schemaPattern } from './schema-pattern.js';

/** Whether `s` names `kind` as a type (int-or-string names integer and string). */
function hasType(s: JSONSchemaProps, kind: string): boolean {
  if (s['x-kubernetes-int-or-string'] === true) return kind === 'integer' || kind === 'string';
  return kind !== '' && s.type === kind;
}

const typed = (s: JSONSchemaProps): boolean =>
  s['x-kubernetes-int-or-string'] === true || (s.type !== undefined && s.type !== '');

/** validateType's verdict on a value that is not null. */
function typeConforms(data: unknown, s: JSONSchemaProps, format: string): boolean {
  const kind = jsonTypeOf(data);
  const dataFormat = kind === 'integer' ? 'int64' : kind === 'number' ? 'float64' : '';
  const isIntFloat = kind === 'integer' && hasType(s, 'number');
  const stringOrArray = kind === 'string' || kind === 'array';
  const ofType = hasType(s, kind) || isIntFloat;
  if (!stringOrArray && format !== '' && !(ofType || dataFormat === format)) return false;
  const numeric = hasType(s, 'number') || hasType(s, 'integer');
  if (!numeric && format !== '' && stringOrArray) return true;
  return ofType;
}

/** Code points of a string, as Go counts a string's length for maxLength and minLength. */
function codePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i + 1 < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) continue;
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) {
      n--;
      i++;
    }
  }
  return n;
}

function stringConforms(data: string, s: JSONSchemaProps, format: string): boolean {
  if (s.maxLength !== undefined || s.minLength !== undefined) {
    const length = codePoints(data);
    if (s.maxLength !== undefined && length > s.maxLength) return false;
    if (s.minLength !== undefined && length < s.minLength) return false;
  }
  if (s.pattern !== undefined && s.pattern !== '') {
    const re = schemaPattern(s, s.pattern);
    if (typeof re === 'string' || !re.matchString(data)) return false;
  }
  return format === '' || matchesFormat(format, data);
}

/** checkNumber's verdict: integers against limits truncated to int64. */
function numberConforms(data: number, s: JSONSchemaProps): boolean {
  const isInt = Number.isInteger(data);
  const factor = s.multipleOf;
  if (factor !== undefined) {
    if (factor < 0) return false;
    if (isInt && Number.isInteger(factor) && factor !== 0) {
      if (data % factor !== 0) return false;
    } else if (!Number.isInteger(factor < 1 ? (1 / factor) * data : data / factor)) return false;
  }
  if (s.minimum !== undefined) {
    const limit = isInt ? Math.trunc(s.minimum) : s.minimum;
    if (s.exclusiveMinimum === true ? data <= limit : data < limit) return false;
  }
  if (s.maximum !== undefined) {
    const limit = isInt ? Math.trunc(s.maximum) : s.maximum;
    if (s.exclusiveMaximum === true ? data >= limit : data > limit) return false;
  }
  return true;
}

function sliceConforms(data: readonly unknown[], s: JSONSchemaProps): boolean {
  const items = itemsSchema(s.items);
  if (items !== undefined) for (const item of data) if (!conforms(item, items)) return false;
  if (s.minItems !== undefined && data.length < s.minItems) return false;
  if (s.maxItems !== undefined && data.length > s.maxItems) return false;
  if (s.uniqueItems === true)
    for (let i = 1; i < data.length; i++)
      for (let j = 0; j < i; j++) if (jsonEqual(data[j], data[i])) return false;
  return true;
}

/**
 * jsonEqual, without writing the texts out when both are strings or booleans, or both numbers
 * (JSON writes every number that is not finite as null).
 */
function sameJSON(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number')
    return a === b || (!Number.isFinite(a) && !Number.isFinite(b));
  const scalar = (v: unknown): boolean => typeof v === 'string' || typeof v === 'boolean';
  if (scalar(a) && scalar(b)) return a === b;
  return jsonEqual(a, b);
}

/** validateEnum's verdict: a null never matches. */
function enumConforms(data: unknown, s: JSONSchemaProps): boolean {
  const values = s.enum;
  if (values === undefined || values.length === 0) return true;
  if (data === null || data === undefined) return false;
  for (const v of values) if (v !== null && sameJSON(v, data)) return true;
  return false;
}

function objectConforms(data: Record<string, unknown>, s: JSONSchemaProps): boolean {
  const additional = additionalSchema(s.additionalProperties);
  let count = 0;
  for (const key in data) {
    if (!Object.hasOwn(data, key)) continue;
    count++;
    const prop = propertyOf(s, key);
    if (prop !== undefined) {
      if (!conforms(data[key], prop)) return false;
    } else if (s.additionalProperties === false) return false;
    else if (additional !== undefined && !conforms(data[key], additional)) return false;
  }
  if (s.minProperties !== undefined && count < s.minProperties) return false;
  if (s.maxProperties !== undefined && count > s.maxProperties) return false;
  for (const name of s.required ?? []) if (!Object.hasOwn(data, name)) return false;
  return true;
}

/** validateSchemaProps' verdict: anyOf, oneOf, allOf and not. */
function combinationsConform(data: unknown, s: JSONSchemaProps): boolean {
  if (s.anyOf !== undefined && s.anyOf.length > 0 && !s.anyOf.some((sub) => conforms(data, sub)))
    return false;
  if (s.oneOf !== undefined && s.oneOf.length > 0) {
    let valid = 0;
    for (const sub of s.oneOf) if (conforms(data, sub)) valid++;
    if (valid !== 1) return false;
  }
  if (s.allOf !== undefined && !s.allOf.every((sub) => conforms(data, sub))) return false;
  return s.not === undefined || !conforms(data, s.not);
}

/** Whether validateSchema(data, s, path) finds no error, whatever the path. */
export function conforms(data: unknown, s: JSONSchemaProps): boolean {
  const format = supportedFormat(s.format);
  if (data === null || data === undefined) {
    const typeRefuses = typed(s) && !hasType(s, 'null') && s.nullable !== true;
    return !typeRefuses && (s.enum === undefined || s.enum.length === 0);
  }
  if ((typed(s) || format !== '') && !typeConforms(data, s, format)) return false;
  if (!combinationsConform(data, s)) return false;
  if (typeof data === 'string' && !stringConforms(data, s, format)) return false;
  if (typeof data === 'number' && !numberConforms(data, s)) return false;
  if (Array.isArray(data) && !sliceConforms(data, s)) return false;
  if (!enumConforms(data, s)) return false;
  return !isJSONObject(data) || objectConforms(data, s);
}
