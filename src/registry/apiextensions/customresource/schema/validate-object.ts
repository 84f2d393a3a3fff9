// Validation of a custom resource against its version's schema: kube-openapi's schema validation
// turned into field errors as apiextensions-apiserver pkg/apiserver/validation/validation.go
// (ValidateCustomResource) does, followed by the list-type uniqueness checks of the CR strategy.
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { FieldError, newPath, type ErrorList } from '../../../../machinery/validation/index.js';
import { conforms } from './conforms.js';
import type { Correlation } from './correlation.js';
import { isJSONObject } from './json-value.js';
import { validateListSetsAndMaps } from './list-type.js';
import type { OpenAPIError } from './openapi-errors.js';
import { validateSchema, validateSchemaUpdate } from './openapi-validator.js';

function toFieldError(err: OpenAPIError): FieldError {
  if (err.code === 'composite') return FieldError.invalid(undefined, '', err.message);
  const name = err.name.startsWith('.') ? err.name.slice(1) : err.name;
  const path = err.name.length > 0 && err.name !== '.' ? newPath(name) : undefined;
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
  obj: Record<string, unknown>,
  schema: JSONSchemaProps,
  update?: Correlation,
): ErrorList {
  // Most objects conform: only one that does not is walked again for its errors.
  const errs = conforms(obj, schema)
    ? []
    : (update === undefined ? validateSchema(obj, schema, '') : validateSchemaUpdate(update)).errors.map(
        toFieldError,
      );
  const listErrs = validateListSetsAndMaps(obj, schema);
  // kube's strategies check the old object's lists only when the new one's have duplicates.
  if (listErrs.length === 0 || update === undefined || !isJSONObject(update.old)) errs.push(...listErrs);
  else if (validateListSetsAndMaps(update.old, schema).length === 0) errs.push(...listErrs);
  return errs;
}
