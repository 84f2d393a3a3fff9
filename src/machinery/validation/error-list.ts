// field.ErrorList and its aggregate text (k8s.io/apimachinery/pkg/util/errors).
import type { FieldError } from './field-error.js';

export type ErrorList = FieldError[];

/** Several field errors as one, rendered as kube's `ErrorList.ToAggregate().Error()`. */
export class Aggregate {
  readonly errors: readonly FieldError[];

  constructor(errors: readonly FieldError[]) {
    this.errors = errors;
  }

  /** One message alone, several as `[a, b]`, repeated messages once. */
  error(): string {
    const messages = [...new Set(this.errors.map((e) => e.error()))];
    return messages.length === 1 ? (messages[0] ?? '') : `[${messages.join(', ')}]`;
  }

  toString(): string {
    return this.error();
  }
}

/** The errors of a list without repeated messages, or undefined for an empty list. */
export function toAggregate(list: readonly FieldError[]): Aggregate | undefined {
  if (list.length === 0) return undefined;
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  for (const err of list) {
    const msg = err.error();
    if (seen.has(msg)) continue;
    seen.add(msg);
    errors.push(err);
  }
  return new Aggregate(errors);
}
