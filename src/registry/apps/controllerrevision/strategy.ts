// ControllerRevision policy (pkg/registry/apps/controllerrevision/strategy.go) and validation
// (ValidateControllerRevision, ValidateControllerRevisionUpdate): data is required and immutable.
import type { ControllerRevision } from '../../../api/apps/v1/controller-revision.js';
import {
  FieldError,
  FieldPath,
  validateNonnegativeField,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { validateCoreObjectMetaUpdate } from '../../core/namespace/finalizer-names.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { validateImmutableField, validateNamespacedMeta } from '../workload/validation.js';

export function validateControllerRevision(rev: ControllerRevision): ErrorList {
  const errs = validateNamespacedMeta(rev.metadata);
  if (rev.data === undefined || rev.data === null)
    errs.push(FieldError.required(FieldPath.of('data'), 'data is mandatory'));
  errs.push(...validateNonnegativeField(rev.revision, FieldPath.of('revision')));
  return errs;
}

export function validateControllerRevisionUpdate(
  rev: ControllerRevision,
  old: ControllerRevision,
): ErrorList {
  return [
    ...validateCoreObjectMetaUpdate(rev.metadata ?? {}, old.metadata ?? {}),
    ...validateImmutableField(rev.data, old.data, FieldPath.of('data')),
    ...validateControllerRevision(rev),
  ];
}

export const controllerRevisionStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForCreate: () => undefined,
  validate: (_ctx, rev) => validateControllerRevision(rev),
  warningsOnCreate: () => [],
  prepareForUpdate: () => undefined,
  validateUpdate: (_ctx, rev, old) => validateControllerRevisionUpdate(rev, old),
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<ControllerRevision> & UpdateStrategy<ControllerRevision>;

export const controllerRevisionDeleteStrategy = {} satisfies DeleteStrategy<ControllerRevision>;
