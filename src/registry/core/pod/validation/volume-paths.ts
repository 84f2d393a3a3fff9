// The path checks of volume sources and mounts (validatePathNoBacksteps, validateLocalDescendingPath,
// ValidateLocalNonReservedPath in pkg/apis/core/validation/validation.go).
import { FieldError, type ErrorList, type FieldPath } from '../../../../machinery/validation/index.js';

/** validatePathNoBacksteps: no `..` element. */
export function validatePathNoBacksteps(target: string, path: FieldPath): ErrorList {
  return target.split('/').includes('..') ? [FieldError.invalid(path, target, "must not contain '..'")] : [];
}

/** validateLocalDescendingPath: relative, without `..`. */
export function validateLocalDescendingPath(target: string, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  if (target.startsWith('/')) errs.push(FieldError.invalid(path, target, 'must be a relative path'));
  errs.push(...validatePathNoBacksteps(target, path));
  return errs;
}

/** ValidateLocalNonReservedPath: also not starting with `..` (as `..data` would). */
export function validateLocalNonReservedPath(target: string, path: FieldPath): ErrorList {
  const errs = validateLocalDescendingPath(target, path);
  if (target.startsWith('..') && !target.startsWith('../'))
    errs.push(FieldError.invalid(path, target, "must not start with '..'"));
  return errs;
}
