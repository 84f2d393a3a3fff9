// ObjectMeta on create, as ValidateObjectMetaAccessor in k8s.io/apimachinery/pkg/api/validation/objectmeta.go.
import type { ManagedFieldsEntry, ObjectMeta } from '../../api/meta.js';
import { FieldError } from './field-error.js';
import type { ErrorList } from './error-list.js';
import { FieldPath } from './field-path.js';
import { validateNamespaceName, type ValidateNameFunc } from './name-validators.js';
import { isQualifiedName } from './qualified-name.js';
import { validateAnnotations } from './validate-annotations.js';
import { validateLabels } from './validate-labels.js';
import { validateOwnerReferences } from './validate-owner-references.js';

export interface ValidateObjectMetaOptions {
  /** Whether the kind is namespaced: then a namespace is required, else forbidden. */
  readonly requiresNamespace: boolean;
  /** The kind's name rule (`nameIsDNSSubdomain`, `nameIsDNSLabel`, ...). */
  readonly validateName: ValidateNameFunc;
  /** Where the metadata sits; `metadata` unless told. */
  readonly path?: FieldPath;
}

export const isNegativeErrorMsg = 'must be greater than or equal to 0';
export const finalizerOrphanDependents = 'orphan';
export const finalizerDeleteDependents = 'foregroundDeletion';

/** A number that must not be negative (kube's ValidateNonnegativeField). */
export function validateNonnegativeField(value: number, path: FieldPath): ErrorList {
  return value < 0 ? [FieldError.invalid(path, value, isNegativeErrorMsg)] : [];
}

/** Finalizers are qualified names, and `orphan` and `foregroundDeletion` exclude each other. */
export function validateFinalizers(finalizers: readonly string[] | undefined, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  if (finalizers === undefined) return errs;
  for (const finalizer of finalizers) {
    for (const msg of isQualifiedName(finalizer)) errs.push(FieldError.invalid(path, finalizer, msg));
  }
  if (finalizers.includes(finalizerOrphanDependents) && finalizers.includes(finalizerDeleteDependents)) {
    const detail = `finalizer ${finalizerOrphanDependents} and ${finalizerDeleteDependents} cannot be both set`;
    errs.push(FieldError.invalid(path, finalizers, detail));
  }
  return errs;
}

/** managedFields entries name a known operation and fields type. */
export function validateManagedFields(
  entries: readonly ManagedFieldsEntry[] | undefined,
  path: FieldPath,
): ErrorList {
  const errs: ErrorList = [];
  for (const entry of entries ?? []) {
    const operation: string = entry.operation ?? '';
    if (operation !== 'Apply' && operation !== 'Update') {
      errs.push(FieldError.invalid(path.child('operation'), operation, 'must be `Apply` or `Update`'));
    }
    const fieldsType = entry.fieldsType ?? '';
    if (fieldsType !== '' && fieldsType !== 'FieldsV1') {
      errs.push(FieldError.invalid(path.child('fieldsType'), fieldsType, 'must be `FieldsV1`'));
    }
  }
  return errs;
}

function validateNames(meta: ObjectMeta, validateName: ValidateNameFunc, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const generateName = meta.generateName ?? '';
  if (generateName !== '') {
    for (const msg of validateName(generateName, true)) {
      errs.push(FieldError.invalid(path.child('generateName'), generateName, msg));
    }
  }
  // Name generation has already run: an empty name means neither was given.
  const name = meta.name ?? '';
  if (name === '') {
    errs.push(FieldError.required(path.child('name'), 'name or generateName is required'));
  } else {
    for (const msg of validateName(name, false)) errs.push(FieldError.invalid(path.child('name'), name, msg));
  }
  return errs;
}

function validateNamespace(meta: ObjectMeta, requiresNamespace: boolean, path: FieldPath): ErrorList {
  const namespace = meta.namespace ?? '';
  const nsPath = path.child('namespace');
  if (!requiresNamespace) {
    return namespace === '' ? [] : [FieldError.forbidden(nsPath, 'not allowed on this type')];
  }
  if (namespace === '') return [FieldError.required(nsPath)];
  return validateNamespaceName(namespace, false).map((msg) => FieldError.invalid(nsPath, namespace, msg));
}

/**
 * The metadata of an object being created: name or generateName, namespace for its scope,
 * generation, labels, annotations, owner references, finalizers and managed fields.
 */
export function validateObjectMeta(meta: ObjectMeta, options: ValidateObjectMetaOptions): ErrorList {
  const path = options.path ?? FieldPath.of('metadata');
  return [
    ...validateNames(meta, options.validateName, path),
    ...validateNamespace(meta, options.requiresNamespace, path),
    ...validateNonnegativeField(meta.generation ?? 0, path.child('generation')),
    ...validateLabels(meta.labels, path.child('labels')),
    ...validateAnnotations(meta.annotations, path.child('annotations')),
    ...validateOwnerReferences(meta.ownerReferences, path.child('ownerReferences')),
    ...validateFinalizers(meta.finalizers, path.child('finalizers')),
    ...validateManagedFields(meta.managedFields, path.child('managedFields')),
  ];
}
