// Validation of a custom resource against its version's schema: kube-openapi's schema validation
// turned into field errors as apiextensions-apiserver pkg/apiserver/validation/validation.go
// (ValidateCustomResource, ValidateCustomResourceUpdate) does, followed by the list-type uniqueness
// checks of the CR strategies.
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import {
  childOf,
  FieldError,
  type ErrorList,
  type FieldPath,
} from '../../../../machinery/validation/index.js';
import { conforms } from './conforms.js';
import type { Correlation } from './correlation.js';
import { isJSONObject, type JSONObject } from './json-value.js';
import { validateListSetsAndMaps } from './list-type.js';
import type { OpenAPIError } from './openapi-errors.js';
import { validateSchema, validateSchemaUpdate } from './openapi-validator.js';

// kube's kubeOpenAPIResultToFieldErrors: an error's name is appended, as one path element, to the
// path of the validated value (none for a whole object).
function toFieldError(err: OpenAPIError, base: FieldPath | undefined): FieldError {
  if (err.code === 'composite') return FieldError.invalid(base, '', err.message);
  const name = err.name.startsWith('.') ? err.name.slice(1) : err.name;
  const path = err.name.length > 0 && err.name !== '.' ? childOf(base, name) : base;
  const value = err.value ?? '';
  switch (err.code) {
    case 'required':
      return FieldError.required(path);
    case 'enum': {
      const values = (err.values ?? []).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
      return FieldError.notSupported(path, err.value, values);
    }
    case 'tooLong':
      // kube-openapi never sets the limit where apiextensions looks for it, so it is unknown (-1).
      return FieldError.tooLong(path, -1);
    case 'maxItems':
    case 'tooManyProperties':
      return FieldError.tooMany(path, typeof err.value === 'number' ? err.value : -1, -1);
    case 'invalidType':
      return FieldError.typeInvalid(path, value, err.message);
    case 'other':
      return FieldError.invalid(path, value, err.message);
  }
}

/** Where a value sits in the object and, on a ratcheting update, its correlation with the old one. */
export interface ValueAt {
  /** The value's path in the object; undefined for the object itself. */
  readonly fldPath?: FieldPath | undefined;
  /** Correlates the value (its `value`) with the old one; undefined validates it as created. */
  readonly update?: Correlation | undefined;
}

/**
 * The schema errors of a value with kube's paths and texts. The texts name the data path from the
 * validated value (kube-openapi's), the field paths start at `fldPath`: `status` validated on its
 * own reports `status.num: Invalid value: 15: num in body should be less than or equal to 10`.
 * With `update`, a part left as it was reports nothing (CRDValidationRatcheting).
 */
export function validateCustomResourceValue(value: unknown, schema: JSONSchemaProps, at: ValueAt): ErrorList {
  // Most values conform: only one that does not is walked again for its errors.
  if (conforms(value, schema)) return [];
  const result =
    at.update === undefined ? validateSchema(value, schema, '') : validateSchemaUpdate(at.update);
  return result.errors.map((e) => toFieldError(e, at.fldPath));
}

/**
 * Duplicate value errors of list-type set/map lists anywhere in the object. On update (`old` given)
 * kube's strategies report them only when the old object had none.
 */
export function ratchetedListErrors(obj: JSONObject, schema: JSONSchemaProps, old: unknown): ErrorList {
  const listErrs = validateListSetsAndMaps(obj, schema);
  if (listErrs.length === 0 || !isJSONObject(old)) return listErrs;
  return validateListSetsAndMaps(old, schema).length === 0 ? listErrs : [];
}

/**
 * The field errors of a custom resource against a structural schema, with kube's paths and texts:
 * `spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`.
 * Schema errors come first, then Duplicate value errors of list-type set/map lists. CEL rules
 * (x-kubernetes-validations) are not evaluated.
 *
 * On update, `update` correlates the object with the old one (its `old`), and errors ratchet as in
 * kube 1.33 (CRDValidationRatcheting): a part of the object the update left as it was reports no
 * schema errors, and Duplicate errors are reported only when the old object had none.
 */
export function validateCustomResourceObject(
  obj: JSONObject,
  schema: JSONSchemaProps,
  update?: Correlation,
): ErrorList {
  return [
    ...validateCustomResourceValue(obj, schema, { update }),
    ...ratchetedListErrors(obj, schema, update?.old),
  ];
}
