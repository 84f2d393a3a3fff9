// Label maps and selectors as k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go.
import { FieldError } from './field-error.js';
import type { ErrorList } from './error-list.js';
import type { FieldPath } from './field-path.js';
import { isQualifiedName, isValidLabelValue } from './qualified-name.js';

/**
 * A label key; every error is reported at `path` itself, as kube does. A key missing from a decoded
 * body (a selector requirement without `key`) is Go's empty string.
 */
export function validateLabelName(labelName: string | undefined, path: FieldPath): ErrorList {
  const name = labelName ?? '';
  return isQualifiedName(name).map((msg) => FieldError.invalid(path, name, msg));
}

/** Every key and value of a label map, errors at `path` (e.g. `metadata.labels`). */
export function validateLabels(
  labels: Readonly<Record<string, string>> | undefined,
  path: FieldPath,
): ErrorList {
  const errs: ErrorList = [];
  if (labels === undefined) return errs;
  for (const key in labels) {
    const value = labels[key] as string;
    errs.push(...validateLabelName(key, path));
    for (const msg of isValidLabelValue(value)) errs.push(FieldError.invalid(path, value, msg));
  }
  return errs;
}
