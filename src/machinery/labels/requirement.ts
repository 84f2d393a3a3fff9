// One label requirement, as Requirement and NewRequirement in k8s.io/apimachinery/pkg/labels/selector.go.
import {
  type Aggregate,
  childOf,
  compareGoStrings,
  FieldError,
  isQualifiedName,
  isValidLabelValue,
  toAggregate,
  type ErrorList,
  type FieldPath,
} from '../validation/index.js';
import { parseInt64 } from './int64.js';
import type { Operator } from './operator.js';

/** A key, an operator and the values it relates them to. Build one with `newRequirement`. */
export interface Requirement {
  readonly key: string;
  readonly operator: Operator;
  readonly values: readonly string[];
}

export type RequirementResult =
  | { readonly ok: true; readonly requirement: Requirement }
  | { readonly ok: false; readonly error: Aggregate };

/** A label key check reported as one error, its messages joined by `; `. */
export function validateLabelKey(key: string, path: FieldPath | undefined): FieldError | undefined {
  const errs = isQualifiedName(key);
  return errs.length === 0 ? undefined : FieldError.invalid(path, key, errs.join('; '));
}

// `values` null is Go's nil slice, which kube prints as `null` in these messages.
function validateValueCount(
  operator: Operator,
  values: readonly string[] | null,
  valuePath: FieldPath,
): ErrorList {
  const count = values === null ? 0 : values.length;
  switch (operator) {
    case 'in':
    case 'notin':
      return count === 0
        ? [FieldError.invalid(valuePath, values, "for 'in', 'notin' operators, values set can't be empty")]
        : [];
    case '=':
    case '==':
    case '!=':
      return count !== 1
        ? [FieldError.invalid(valuePath, values, 'exact-match compatibility requires one single value')]
        : [];
    case 'exists':
    case '!':
      return count !== 0
        ? [FieldError.invalid(valuePath, values, 'values set must be empty for exists and does not exist')]
        : [];
    case 'gt':
    case 'lt': {
      const errs: ErrorList = [];
      if (count !== 1) {
        errs.push(
          FieldError.invalid(valuePath, values, "for 'Gt', 'Lt' operators, exactly one value is required"),
        );
      }
      (values ?? []).forEach((v, i) => {
        if (parseInt64(v) === undefined) {
          errs.push(
            FieldError.invalid(
              valuePath.index(i),
              v,
              "for 'Gt', 'Lt' operators, the value must be an integer",
            ),
          );
        }
      });
      return errs;
    }
  }
}

/**
 * Validates and builds a requirement. `values` may be null to stand for Go's nil slice, which
 * kube prints as `null` in the empty-values message. Errors sit under `path` (`key`, `values[i]`).
 */
export function newRequirement(
  spec: { readonly key: string; readonly operator: Operator; readonly values: readonly string[] | null },
  path?: FieldPath,
): RequirementResult {
  const errs: ErrorList = [];
  const keyErr = validateLabelKey(spec.key, childOf(path, 'key'));
  if (keyErr !== undefined) errs.push(keyErr);
  const valuePath = childOf(path, 'values');
  const values = Object.freeze([...(spec.values ?? [])]);
  const requirement: Requirement = { key: spec.key, operator: spec.operator, values };
  errs.push(...validateValueCount(spec.operator, spec.values, valuePath));
  requirement.values.forEach((v, i) => {
    const msgs = isValidLabelValue(v);
    if (msgs.length > 0) errs.push(FieldError.invalid(valuePath.index(i).key(spec.key), v, msgs.join('; ')));
  });
  const error = toAggregate(errs);
  return error === undefined ? { ok: true, requirement } : { ok: false, error };
}

const operatorText: Readonly<Record<Operator, string>> = {
  '=': '=',
  '==': '==',
  '!=': '!=',
  in: ' in ',
  notin: ' notin ',
  gt: '>',
  lt: '<',
  exists: '',
  '!': '',
};

/** The requirement in selector syntax, values sorted: `a in (x,y)`, `!b`, `c>1`. */
export function requirementString(r: Requirement): string {
  if (r.operator === 'exists') return r.key;
  if (r.operator === '!') return `!${r.key}`;
  const values = r.values.length === 1 ? (r.values[0] ?? '') : [...r.values].sort(compareGoStrings).join(',');
  const set = r.operator === 'in' || r.operator === 'notin';
  return `${r.key}${operatorText[r.operator]}${set ? `(${values})` : values}`;
}
