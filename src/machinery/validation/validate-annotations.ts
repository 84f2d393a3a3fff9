// Annotation maps, as ValidateAnnotations in k8s.io/apimachinery/pkg/api/validation/objectmeta.go.
import { FieldError } from './field-error.js';
import type { ErrorList } from './error-list.js';
import type { FieldPath } from './field-path.js';
import { byteLength } from './messages.js';
import { isQualifiedName } from './qualified-name.js';

/** The most bytes all keys and values of one object's annotations may take together. */
export const totalAnnotationSizeLimitBytes = 256 * 1024;

/** The bytes an annotation map takes: every key and value. */
export function annotationsSize(annotations: Readonly<Record<string, string>>): number {
  let total = 0;
  for (const key in annotations) total += byteLength(key) + byteLength(annotations[key] as string);
  return total;
}

/** Keys are qualified names in any case; the total size stays within 256 KiB. */
export function validateAnnotations(
  annotations: Readonly<Record<string, string>> | undefined,
  path: FieldPath,
): ErrorList {
  const errs: ErrorList = [];
  if (annotations === undefined) return errs;
  for (const key of Object.keys(annotations)) {
    for (const msg of isQualifiedName(key.toLowerCase())) errs.push(FieldError.invalid(path, key, msg));
  }
  if (annotationsSize(annotations) > totalAnnotationSizeLimitBytes) {
    errs.push(FieldError.tooLong(path, totalAnnotationSizeLimitBytes));
  }
  return errs;
}
