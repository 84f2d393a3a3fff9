// kube-openapi's validation errors (pkg/validation/errors/schema.go) with their message texts, and the
// composite messages of schema_messages.go, which are plain errors without a field name.
import { goQuote } from '../../../../machinery/validation/go-format.js';

/**
 * Go's %v of a limit: an int64 prints its digits; a float64 prints %g with shortest digits, in
 * exponent form below 1e-4 and from 1e6 on (1e+06). Whole numbers here are the int64 limits kube
 * compares integers with; a float limit that is whole prints the same digits below 1e6.
 */
export function goV(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  const [mantissa = '', expText = '0'] = n.toExponential().split('e');
  const exp = Number(expText);
  if (exp >= -4 && exp < 6) return String(n);
  return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

/** The error codes ValidateCustomResource tells apart; every other code is `other`. */
export type OpenAPIErrorCode =
  'invalidType' | 'required' | 'tooLong' | 'enum' | 'maxItems' | 'tooManyProperties' | 'other' | 'composite';

export interface OpenAPIError {
  readonly code: OpenAPIErrorCode;
  /** The dotted data path (`spec.items[0].name`); '' for composite errors. */
  readonly name: string;
  /** The offending value; undefined where kube's error carries none. */
  readonly value: unknown;
  readonly message: string;
  readonly values?: readonly unknown[];
}

const IN = 'body';

const err = (
  code: OpenAPIErrorCode,
  name: string,
  [value, message]: readonly [unknown, string],
): OpenAPIError => ({ code, name, value, message });

/** InvalidType with a string value (the only kind kube's validators pass). */
export const invalidType = (name: string, typeName: string, value: string): OpenAPIError =>
  err('invalidType', name, [value, `${name} in ${IN} must be of type ${typeName}: ${goQuote(value)}`]);

export const required = (name: string): OpenAPIError =>
  err('required', name, [undefined, `${name} in ${IN} is required`]);

export const tooLong = (name: string, max: number, value: string): OpenAPIError =>
  err('tooLong', name, [value, `${name} in ${IN} should be at most ${String(max)} chars long`]);

export const tooShort = (name: string, min: number, value: string): OpenAPIError =>
  err('other', name, [value, `${name} in ${IN} should be at least ${String(min)} chars long`]);

export const failedPattern = (name: string, pattern: string, value: string): OpenAPIError =>
  err('other', name, [value, `${name} in ${IN} should match '${pattern}'`]);

export const enumFail = (name: string, value: unknown, values: readonly unknown[]): OpenAPIError => ({
  ...err('enum', name, [value, `${name} in ${IN} should be one of the enum values`]),
  values,
});

export const notMultipleOf = (name: string, factor: string, value: number): OpenAPIError =>
  err('other', name, [value, `${name} in ${IN} should be a multiple of ${factor}`]);

export const multipleOfMustBePositive = (name: string, factor: number, text: string): OpenAPIError =>
  err('other', name, [factor, `factor MultipleOf declared for ${name} must be positive: ${text}`]);

interface Bound {
  readonly name: string;
  /** The limit as Go's %v prints it (int64 digits or float64 %g). */
  readonly limitText: string;
  readonly exclusive: boolean;
  readonly value: number;
}

export const exceedsMaximum = (b: Bound): OpenAPIError =>
  err('other', b.name, [
    b.value,
    `${b.name} in ${IN} should be less than ${b.exclusive ? '' : 'or equal to '}${b.limitText}`,
  ]);

export const exceedsMinimum = (b: Bound): OpenAPIError =>
  err('other', b.name, [
    b.value,
    `${b.name} in ${IN} should be greater than ${b.exclusive ? '' : 'or equal to '}${b.limitText}`,
  ]);

export const duplicateItems = (name: string): OpenAPIError =>
  err('other', name, [undefined, `${name} in ${IN} shouldn't contain duplicates`]);

export const tooManyItems = (name: string, max: number, size: number): OpenAPIError =>
  err('maxItems', name, [size, `${name} in ${IN} should have at most ${String(max)} items`]);

export const tooFewItems = (name: string, min: number, size: number): OpenAPIError =>
  err('other', name, [size, `${name} in ${IN} should have at least ${String(min)} items`]);

// kube-openapi passes the limit, not the count, as the value of property-count errors.
export const tooManyProperties = (name: string, max: number): OpenAPIError =>
  err('tooManyProperties', name, [max, `${name} in ${IN} should have at most ${String(max)} properties`]);

export const tooFewProperties = (name: string, min: number): OpenAPIError =>
  err('other', name, [min, `${name} in ${IN} should have at least ${String(min)} properties`]);

export const propertyNotAllowed = (name: string, key: string): OpenAPIError =>
  err('other', name, [key, `${name}.${key} in ${IN} is a forbidden property`]);

const composite = (message: string): OpenAPIError => err('composite', '', [undefined, message]);

export const mustValidateAtLeastOne = (path: string): OpenAPIError =>
  composite(`${goQuote(path)} must validate at least one schema (anyOf)`);

export const mustValidateOnlyOne = (path: string, valid: number): OpenAPIError =>
  composite(
    `${goQuote(path)} must validate one and only one schema (oneOf). ${
      valid === 0 ? 'Found none valid' : `Found ${String(valid)} valid alternatives`
    }`,
  );

export const mustValidateAll = (path: string, noneValid: boolean): OpenAPIError =>
  composite(`${goQuote(path)} must validate all the schemas (allOf)${noneValid ? '. None validated' : ''}`);

export const mustNotValidate = (path: string): OpenAPIError =>
  composite(`${goQuote(path)} must not validate the schema (not)`);
