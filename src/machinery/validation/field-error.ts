// Field-level validation errors, as k8s.io/apimachinery/pkg/util/validation/field/errors.go.
import { goJson, goNumber, goQuote } from './go-format.js';
import { pathString, type FieldPath } from './field-path.js';

/** kube's field.ErrorType values; each is also the metav1.CauseType of a Status cause. */
export const errorTypes = [
  'FieldValueNotFound',
  'FieldValueRequired',
  'FieldValueDuplicate',
  'FieldValueInvalid',
  'FieldValueNotSupported',
  'FieldValueForbidden',
  'FieldValueTooLong',
  'FieldValueTooMany',
  'InternalError',
  'FieldValueTypeInvalid',
] as const;
export type ErrorType = (typeof errorTypes)[number];

/** The canonical text of each type (kube's ErrorType.String()). */
export const errorTypeText: Readonly<Record<ErrorType, string>> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

// Types whose message never shows the offending value.
const withoutValue: Readonly<Record<ErrorType, boolean>> = {
  FieldValueNotFound: false,
  FieldValueRequired: true,
  FieldValueDuplicate: false,
  FieldValueInvalid: false,
  FieldValueNotSupported: false,
  FieldValueForbidden: true,
  FieldValueTooLong: true,
  FieldValueTooMany: false,
  InternalError: true,
  FieldValueTypeInvalid: false,
};

/** Marks a bad value that the message must leave out (kube's omitValue). */
export const omitValue: unique symbol = Symbol('omitValue');

export interface FieldErrorInit {
  readonly type: ErrorType;
  /** The rendered field path, `metadata.name`. */
  readonly field: string;
  readonly badValue: unknown;
  readonly detail: string;
}

function renderValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return goQuote(value);
    case 'number':
      return goNumber(value);
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'object':
    case 'undefined':
    case 'function':
    case 'symbol':
      return goJson(value);
  }
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** One field validation error; `error()` renders it exactly as kube's `field.Error.Error()`. */
export class FieldError {
  readonly type: ErrorType;
  readonly field: string;
  readonly badValue: unknown;
  readonly detail: string;

  constructor(init: FieldErrorInit) {
    this.type = init.type;
    this.field = init.field;
    this.badValue = init.badValue;
    this.detail = init.detail;
  }

  /** `<field>: <body>`. */
  error(): string {
    return `${this.field}: ${this.errorBody()}`;
  }

  /** The message without the field (kube's ErrorBody), used as a Status cause's message. */
  errorBody(): string {
    let s = errorTypeText[this.type];
    if (!withoutValue[this.type] && this.badValue !== omitValue) {
      s += `: ${renderValue(this.badValue)}`;
    }
    return this.detail.length > 0 ? `${s}: ${this.detail}` : s;
  }

  toString(): string {
    return this.error();
  }

  /** The cause type a Status carries for this error. */
  get causeType(): ErrorType {
    return this.type;
  }

  get body(): string {
    return this.errorBody();
  }

  get text(): string {
    return this.error();
  }

  static required(path: FieldPath | undefined, detail = ''): FieldError {
    return new FieldError({ type: 'FieldValueRequired', field: pathString(path), badValue: '', detail });
  }

  static invalid(path: FieldPath | undefined, value: unknown, detail = ''): FieldError {
    return new FieldError({ type: 'FieldValueInvalid', field: pathString(path), badValue: value, detail });
  }

  static typeInvalid(path: FieldPath | undefined, value: unknown, detail = ''): FieldError {
    return new FieldError({
      type: 'FieldValueTypeInvalid',
      field: pathString(path),
      badValue: value,
      detail,
    });
  }

  static notFound(path: FieldPath | undefined, value: unknown): FieldError {
    return new FieldError({
      type: 'FieldValueNotFound',
      field: pathString(path),
      badValue: value,
      detail: '',
    });
  }

  static duplicate(path: FieldPath | undefined, value: unknown): FieldError {
    return new FieldError({
      type: 'FieldValueDuplicate',
      field: pathString(path),
      badValue: value,
      detail: '',
    });
  }

  /** An unknown value of an enumerated field, listing the values that are supported. */
  static notSupported(
    path: FieldPath | undefined,
    value: unknown,
    validValues: readonly string[],
  ): FieldError {
    const detail = validValues.length > 0 ? `supported values: ${validValues.map(goQuote).join(', ')}` : '';
    return new FieldError({
      type: 'FieldValueNotSupported',
      field: pathString(path),
      badValue: value,
      detail,
    });
  }

  static forbidden(path: FieldPath | undefined, detail: string): FieldError {
    return new FieldError({ type: 'FieldValueForbidden', field: pathString(path), badValue: '', detail });
  }

  /** A value longer than `maxLength` bytes; a negative limit is left out of the message. */
  static tooLong(path: FieldPath | undefined, maxLength: number): FieldError {
    const detail =
      maxLength >= 0 ? `may not be more than ${plural(maxLength, 'byte', 'bytes')}` : 'value is too long';
    return new FieldError({
      type: 'FieldValueTooLong',
      field: pathString(path),
      badValue: '<value omitted>',
      detail,
    });
  }

  /** A list with more than `maxQuantity` items; negative numbers are left out of the message. */
  static tooMany(path: FieldPath | undefined, actualQuantity: number, maxQuantity: number): FieldError {
    const detail =
      maxQuantity >= 0 ? `must have at most ${plural(maxQuantity, 'item', 'items')}` : 'has too many items';
    const badValue = actualQuantity >= 0 ? actualQuantity : omitValue;
    return new FieldError({ type: 'FieldValueTooMany', field: pathString(path), badValue, detail });
  }

  static internal(path: FieldPath | undefined, err: Error | string): FieldError {
    const detail = typeof err === 'string' ? err : err.message;
    return new FieldError({ type: 'InternalError', field: pathString(path), badValue: err, detail });
  }
}
