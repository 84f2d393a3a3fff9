// spec.successPolicy of a Job or a CronJob's job template (the successPolicy part of validateJobSpec,
// validateSuccessPolicy and validateSuccessPolicyRule in pkg/apis/batch/validation/validation.go).
import type { JobSpec, SuccessPolicyRule } from '../../../api/batch/v1/job.js';
import {
  byteLength,
  FieldError,
  validateNonnegativeField,
  type ErrorList,
  type FieldPath,
} from '../../../machinery/validation/index.js';
import { validateIndexesFormat } from './index-intervals.js';

const maxSucceededIndexesLength = 64 * 1024;
const maxSuccessPolicyRules = 20;

/**
 * The policy as kube's message shows it: encoding/json of the internal batch.SuccessPolicy, whose
 * fields carry no json tags, so Go's field names and a null for each field left out.
 */
function internalSuccessPolicy(policy: { rules?: SuccessPolicyRule[] }): unknown {
  return {
    Rules:
      policy.rules?.map((rule) => ({
        SucceededIndexes: rule.succeededIndexes ?? null,
        SucceededCount: rule.succeededCount ?? null,
      })) ?? null,
  };
}

/**
 * validateSuccessPolicyRule. An Indexed Job without completions already has its error, and kube
 * would dereference the missing value past the first check, so the rest is left out then.
 */
function validateRule(rule: SuccessPolicyRule, completions: number | undefined, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const { succeededIndexes, succeededCount } = rule;
  if (succeededCount === undefined && succeededIndexes === undefined)
    errs.push(
      FieldError.required(path, 'at least one of succeededCount or succeededIndexes must be specified'),
    );
  if (completions === undefined) return errs;
  let totalIndexes = 0;
  if (succeededIndexes !== undefined) {
    const indexesPath = path.child('succeededIndexes');
    if (byteLength(succeededIndexes) > maxSucceededIndexesLength)
      errs.push(FieldError.tooLong(indexesPath, maxSucceededIndexesLength));
    const parsed = validateIndexesFormat(succeededIndexes, completions);
    if (parsed.ok) totalIndexes = parsed.total;
    else
      errs.push(
        FieldError.invalid(
          indexesPath,
          succeededIndexes,
          `error parsing succeededIndexes: ${parsed.message}`,
        ),
      );
  }
  if (succeededCount !== undefined) {
    const countPath = path.child('succeededCount');
    errs.push(...validateNonnegativeField(succeededCount, countPath));
    if (succeededCount > completions)
      errs.push(
        FieldError.invalid(
          countPath,
          succeededCount,
          `must be less than or equal to ${String(completions)} (the number of specified completions)`,
        ),
      );
    if (succeededIndexes !== undefined && succeededCount > totalIndexes)
      errs.push(
        FieldError.invalid(
          countPath,
          succeededCount,
          `must be less than or equal to ${String(totalIndexes)} (the number of indexes in the specified succeededIndexes field)`,
        ),
      );
  }
  return errs;
}

/** A successPolicy needs completionMode Indexed; then at least one and at most 20 rules. */
export function validateJobSuccessPolicy(spec: JobSpec, path: FieldPath): ErrorList {
  const policy = spec.successPolicy;
  if (policy === undefined) return [];
  if (spec.completionMode !== 'Indexed')
    return [FieldError.invalid(path, internalSuccessPolicy(policy), 'requires indexed completion mode')];
  const errs: ErrorList = [];
  const rules = (policy.rules as SuccessPolicyRule[] | undefined) ?? [];
  const rulesPath = path.child('rules');
  if (rules.length === 0)
    errs.push(
      FieldError.required(
        rulesPath,
        'at least one rules must be specified when the successPolicy is specified',
      ),
    );
  if (rules.length > maxSuccessPolicyRules)
    errs.push(FieldError.tooMany(rulesPath, rules.length, maxSuccessPolicyRules));
  rules.forEach((rule, i) => {
    errs.push(...validateRule(rule, spec.completions, rulesPath.index(i)));
  });
  return errs;
}
