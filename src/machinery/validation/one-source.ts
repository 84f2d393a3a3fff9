// The "exactly one volume type" rule kube applies to pod volumes and persistent volume specs: the
// first source set is checked, each further one is forbidden, none at all is required.
import { FieldError } from './field-error.js';
import type { ErrorList } from './error-list.js';
import type { FieldPath } from './field-path.js';

/** A source field of T and the check of its value, in the order kube visits them. */
export type SourceCheck<T> = readonly [field: keyof T & string, check: (obj: T, at: FieldPath) => ErrorList];

export function validateOneSource<T>(obj: T, sources: readonly SourceCheck<T>[], at: FieldPath): ErrorList {
  const errs: ErrorList = [];
  let found = false;
  for (const [field, check] of sources) {
    if (obj[field] === undefined) continue;
    if (found) {
      errs.push(FieldError.forbidden(at.child(field), 'may not specify more than 1 volume type'));
      continue;
    }
    found = true;
    errs.push(...check(obj, at.child(field)));
  }
  if (!found) errs.push(FieldError.required(at, 'must specify a volume type'));
  return errs;
}
