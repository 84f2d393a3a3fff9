// kube-openapi's SchemaValidator (pkg/validation/validate/schema.go and the type, string, format,
// number, slice, common, object and schema-props validators) over a CRD schema converted as
// apiextensions' ConvertJSONSchemaPropsWithPostProcess does (int-or-string → type integer,string;
// unsupported formats stripped).
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import type { Correlation } from './correlation.js';
import { matchesFormat, supportedFormat } from './formats.js';
import { additionalSchema, isJSONObject, itemsSchema, jsonEqual, jsonTypeOf } from './json-value.js';
import * as e from './openapi-errors.js';
import { goV, type OpenAPIError } from './openapi-errors.js';
import { schemaPattern } from './schema-pattern.js';

/** Errors plus kube-openapi's count of checks performed, used to pick the best anyOf/oneOf failure. */
export interface Result {
  errors: OpenAPIError[];
  matchCount: number;
}

const newResult = (): Result => ({ errors: [], matchCount: 0 });

/**
 * Where a node is validated: its data path and, on a ratcheting update, its correlation with the
 * old value (undefined where there is none: a create, or a part that does not correlate).
 */
interface At {
  readonly path: string;
  readonly corr: Correlation | undefined;
}

function merge(into: Result, from: Result | undefined): void {
  if (from === undefined) return;
  into.errors.push(...from.errors);
  into.matchCount += from.matchCount;
}

const fail = (...errors: OpenAPIError[]): Result => ({ errors, matchCount: 0 });

function typesOf(s: JSONSchemaProps): string[] {
  if (s['x-kubernetes-int-or-string'] === true) return ['integer', 'string'];
  return s.type !== undefined && s.type !== '' ? [s.type] : [];
}

function validateType(data: unknown, s: JSONSchemaProps, path: string): Result {
  const types = typesOf(s);
  const format = supportedFormat(s.format);
  if (data === null || data === undefined) {
    if (types.length > 0 && !types.includes('null') && s.nullable !== true) {
      return fail(e.invalidType(path, types.join(','), 'null'));
    }
    return { errors: [], matchCount: 1 };
  }
  const kind = jsonTypeOf(data);
  const dataFormat = kind === 'integer' ? 'int64' : kind === 'number' ? 'float64' : '';
  const isIntFloat = kind === 'integer' && types.includes('number');
  const stringOrArray = kind === 'string' || kind === 'array';
  if (!stringOrArray && format !== '' && !(types.includes(kind) || dataFormat === format || isIntFloat)) {
    return fail(e.invalidType(path, format, dataFormat));
  }
  const numeric = types.includes('number') || types.includes('integer');
  if (!numeric && format !== '' && stringOrArray) return { errors: [], matchCount: 1 };
  if (!(types.includes(kind) || isIntFloat)) return fail(e.invalidType(path, types.join(','), kind));
  return { errors: [], matchCount: 1 };
}

function validateString(data: string, s: JSONSchemaProps, path: string): Result | undefined {
  const length = data.length - (data.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
  if (s.maxLength !== undefined && length > s.maxLength) return fail(e.tooLong(path, s.maxLength, data));
  if (s.minLength !== undefined && length < s.minLength) return fail(e.tooShort(path, s.minLength, data));
  if (s.pattern !== undefined && s.pattern !== '') {
    const re = schemaPattern(s, s.pattern);
    if (typeof re === 'string') {
      return fail(e.failedPattern(path, `${s.pattern}, but pattern is invalid: ${re}`, data));
    }
    if (!re.matchString(data)) return fail(e.failedPattern(path, s.pattern, data));
  }
  return undefined;
}

// Integers are compared against limits truncated to int64, as MaximumNativeType converts them, and
// the messages print those limits as integers.
function checkNumber(data: number, s: JSONSchemaProps, path: string): OpenAPIError[] {
  const isInt = Number.isInteger(data);
  const text = (n: number): string => (isInt ? String(Math.trunc(n)) : goV(n));
  const out: OpenAPIError[] = [];
  if (s.multipleOf !== undefined) {
    const factor = s.multipleOf;
    if (factor < 0) out.push(e.multipleOfMustBePositive(path, factor, text(factor)));
    else if (isInt && Number.isInteger(factor) && factor !== 0) {
      if (data % factor !== 0) out.push(e.notMultipleOf(path, text(factor), data));
    } else {
      const mult = factor < 1 ? (1 / factor) * data : data / factor;
      if (!Number.isInteger(mult)) out.push(e.notMultipleOf(path, goV(factor), data));
    }
  }
  if (s.minimum !== undefined) {
    const limit = isInt ? Math.trunc(s.minimum) : s.minimum;
    const exclusive = s.exclusiveMinimum === true;
    if (exclusive ? data <= limit : data < limit) {
      out.push(e.exceedsMinimum({ name: path, limitText: text(limit), exclusive, value: data }));
    }
  }
  if (s.maximum !== undefined) {
    const limit = isInt ? Math.trunc(s.maximum) : s.maximum;
    const exclusive = s.exclusiveMaximum === true;
    if (exclusive ? data >= limit : data > limit) {
      out.push(e.exceedsMaximum({ name: path, limitText: text(limit), exclusive, value: data }));
    }
  }
  return out;
}

function validateSlice(data: unknown[], s: JSONSchemaProps, at: At): Result {
  const { path } = at;
  const res = newResult();
  const items = itemsSchema(s.items);
  if (items !== undefined) {
    data.forEach((item, i) => {
      const corr = at.corr?.index(i);
      merge(res, validateAt(item, items, { path: `${path}[${String(i)}]`, corr }));
    });
  }
  if (s.minItems !== undefined && data.length < s.minItems) {
    res.errors.push(e.tooFewItems(path, s.minItems, data.length));
  }
  if (s.maxItems !== undefined && data.length > s.maxItems) {
    res.errors.push(e.tooManyItems(path, s.maxItems, data.length));
  }
  if (s.uniqueItems === true && data.some((v, i) => data.slice(0, i).some((u) => jsonEqual(u, v)))) {
    res.errors.push(e.duplicateItems(path));
  }
  res.matchCount++;
  return res;
}

function validateEnum(data: unknown, s: JSONSchemaProps, path: string): Result | undefined {
  if (s.enum === undefined || s.enum.length === 0) return undefined;
  // A null never matches: kube-openapi cannot compare a nil value with the enum's.
  if (data !== null && data !== undefined && s.enum.some((v) => v !== null && jsonEqual(v, data))) {
    return undefined;
  }
  return fail(e.enumFail(path, data ?? null, s.enum));
}

// kube's ratchetingValueValidator.SubPropertyValidator: the root's apiVersion and kind never ratchet.
function memberAt(at: At, key: string, path: string): At {
  const typeMeta = at.path === '' && (key === 'apiVersion' || key === 'kind');
  return { path, corr: typeMeta ? undefined : at.corr?.key(key) };
}

function validateObject(data: Record<string, unknown>, s: JSONSchemaProps, at: At): Result {
  const { path } = at;
  const keys = Object.keys(data);
  if (s.minProperties !== undefined && keys.length < s.minProperties) {
    return fail(e.tooFewProperties(path, s.minProperties));
  }
  if (s.maxProperties !== undefined && keys.length > s.maxProperties) {
    return fail(e.tooManyProperties(path, s.maxProperties));
  }
  const res = newResult();
  const props = s.properties ?? {};
  const additional = additionalSchema(s.additionalProperties);
  for (const key of keys) {
    if (Object.hasOwn(props, key)) continue;
    if (s.additionalProperties === false) res.errors.push(e.propertyNotAllowed(path, key));
    else if (additional !== undefined)
      merge(res, validateAt(data[key], additional, memberAt(at, key, `${path}.${key}`)));
  }
  for (const [name, prop] of Object.entries(props)) {
    if (!Object.hasOwn(data, name)) continue;
    merge(res, validateAt(data[name], prop, memberAt(at, name, path === '' ? name : `${path}.${name}`)));
  }
  for (const name of s.required ?? []) {
    if (!Object.hasOwn(data, name)) res.errors.push(e.required(`${path}.${name}`));
  }
  return res;
}

function validateAnyOf(data: unknown, schemas: JSONSchemaProps[], at: At): Result {
  const { path } = at;
  const main = newResult();
  let best: Result | undefined;
  for (const sub of schemas) {
    const r = validateNode(data, sub, at);
    if (r.errors.length === 0) {
      merge(main, r);
      return main;
    }
    if (best === undefined || r.matchCount > best.matchCount) best = r;
  }
  main.errors.push(e.mustValidateAtLeastOne(path));
  merge(main, best);
  return main;
}

function validateOneOf(data: unknown, schemas: JSONSchemaProps[], at: At): Result {
  const { path } = at;
  const main = newResult();
  let best: Result | undefined;
  let firstSuccess: Result | undefined;
  let valid = 0;
  for (const sub of schemas) {
    const r = validateNode(data, sub, at);
    if (r.errors.length === 0) {
      valid++;
      best = undefined;
      firstSuccess ??= r;
      continue;
    }
    if (valid === 0 && (best === undefined || r.matchCount > best.matchCount)) best = r;
  }
  if (valid !== 1) {
    main.errors.push(e.mustValidateOnlyOne(path, valid));
    merge(main, best);
  } else merge(main, firstSuccess);
  return main;
}

function validateSchemaProps(data: unknown, s: JSONSchemaProps, at: At): Result {
  const { path } = at;
  const main = newResult();
  if (s.anyOf !== undefined && s.anyOf.length > 0) merge(main, validateAnyOf(data, s.anyOf, at));
  if (s.oneOf !== undefined && s.oneOf.length > 0) merge(main, validateOneOf(data, s.oneOf, at));
  if (s.allOf !== undefined && s.allOf.length > 0) {
    let valid = 0;
    for (const sub of s.allOf) {
      const r = validateNode(data, sub, at);
      if (r.errors.length === 0) valid++;
      merge(main, r);
    }
    if (valid !== s.allOf.length) main.errors.push(e.mustValidateAll(path, valid === 0));
  }
  if (s.not !== undefined && validateNode(data, s.not, at).errors.length === 0) {
    main.errors.push(e.mustNotValidate(path));
  }
  main.matchCount++;
  return main;
}

/**
 * A node that correlates with an old value: its errors (its own keywords' and everything below it)
 * are dropped when it equals that value, as kube's ratchetingValueValidator.Validate drops them.
 */
function validateAt(data: unknown, s: JSONSchemaProps, at: At): Result {
  const res = validateNode(data, s, at);
  if (res.errors.length === 0 || at.corr === undefined || !at.corr.unchanged()) return res;
  return { errors: [], matchCount: res.matchCount };
}

/** One value against one schema node, in kube-openapi's validator order. */
export function validateSchema(data: unknown, s: JSONSchemaProps, path: string): Result {
  return validateNode(data, s, { path, corr: undefined });
}

/**
 * An updated value against the schema with kube's validation ratcheting: `corr` correlates the
 * value (its `value`) with the old one, and a part left as it was reports no errors.
 */
export function validateSchemaUpdate(corr: Correlation): Result {
  return validateAt(corr.value, corr.schema, { path: '', corr });
}

function validateNode(data: unknown, s: JSONSchemaProps, at: At): Result {
  const { path } = at;
  const res = newResult();
  const appliesType = typesOf(s).length > 0 || supportedFormat(s.format) !== '';
  if (data === null || data === undefined) {
    if (appliesType) merge(res, validateType(data, s, path));
    merge(res, validateEnum(data, s, path));
    return res;
  }
  const kind = jsonTypeOf(data);
  const steps: (() => Result | undefined)[] = [];
  if (appliesType) steps.push(() => validateType(data, s, path));
  steps.push(() => validateSchemaProps(data, s, at));
  if (typeof data === 'string') {
    steps.push(() => validateString(data, s, path));
    const format = supportedFormat(s.format);
    if (format !== '') {
      steps.push(() => (matchesFormat(format, data) ? undefined : fail(e.invalidType(path, format, data))));
    }
  }
  if (typeof data === 'number') steps.push(() => fail(...checkNumber(data, s, path)));
  if (Array.isArray(data)) steps.push(() => validateSlice(data, s, at));
  steps.push(() => validateEnum(data, s, path));
  if (isJSONObject(data) && kind === 'object') steps.push(() => validateObject(data, s, at));
  for (const step of steps) {
    merge(res, step());
    res.matchCount++;
  }
  res.matchCount++;
  return res;
}
