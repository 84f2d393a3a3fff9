// metav1.LabelSelector in a spec, as ValidateLabelSelector in
// k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go.
import {
  FieldError,
  isValidLabelValue,
  validateLabelName,
  validateLabels,
  type ErrorList,
  type FieldPath,
} from '../validation/index.js';
import type { LabelSelector, LabelSelectorRequirement } from './meta-label-selector.js';

/** kube's LabelSelectorValidationOptions. */
export interface LabelSelectorValidationOptions {
  /**
   * Values that are not label values pass. kube sets it only on an update of an object whose old
   * selector already held such a value (stored before the check existed).
   */
  readonly allowInvalidLabelValue?: boolean;
}

/**
 * One matchExpressions entry: a known operator, values only where it takes them, a valid key, and
 * values that are label values.
 */
export function validateLabelSelectorRequirement(
  sr: LabelSelectorRequirement,
  path: FieldPath,
  opts: LabelSelectorValidationOptions = {},
): ErrorList {
  const errs: ErrorList = [];
  const count = sr.values?.length ?? 0;
  switch (sr.operator) {
    case 'In':
    case 'NotIn':
      if (count === 0) {
        errs.push(
          FieldError.required(path.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"),
        );
      }
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (count > 0) {
        errs.push(
          FieldError.forbidden(
            path.child('values'),
            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
          ),
        );
      }
      break;
    default:
      errs.push(FieldError.invalid(path.child('operator'), sr.operator, 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(sr.key, path.child('key')));
  if (opts.allowInvalidLabelValue !== true) {
    (sr.values ?? []).forEach((value, i) => {
      for (const msg of isValidLabelValue(value))
        errs.push(FieldError.invalid(path.child('values').index(i), value, msg));
    });
  }
  return errs;
}

/** A label selector in a spec: valid matchLabels and matchExpressions. */
export function validateLabelSelector(
  ps: LabelSelector | null | undefined,
  path: FieldPath,
  opts: LabelSelectorValidationOptions = {},
): ErrorList {
  if (ps === null || ps === undefined) return [];
  const errs = validateLabels(ps.matchLabels, path.child('matchLabels'));
  (ps.matchExpressions ?? []).forEach((expr, i) => {
    errs.push(...validateLabelSelectorRequirement(expr, path.child('matchExpressions').index(i), opts));
  });
  return errs;
}
