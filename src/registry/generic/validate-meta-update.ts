// ObjectMeta on update, as ValidateObjectMetaAccessorUpdate in
// k8s.io/apimachinery/pkg/api/validation/objectmeta.go. It belongs beside validateObjectMeta in
// src/machinery/validation; it lives here until that module exports it.
import type { ObjectMeta } from '../../api/meta.js';
import {
  FieldError,
  FieldPath,
  goQuote,
  validateAnnotations,
  validateLabels,
  validateManagedFields,
  validateOwnerReferences,
  type ErrorList,
} from '../../machinery/validation/index.js';
import { jsonEqual } from './object-meta.js';

/** apimachineryvalidation.FieldImmutableErrorMsg. */
export const fieldImmutableErrorMsg = 'field is immutable';

/** ValidateImmutableField: an Invalid error carrying the new value when it differs from the old. */
export function validateImmutableField(newVal: unknown, oldVal: unknown, path: FieldPath): ErrorList {
  return jsonEqual(newVal, oldVal) ? [] : [FieldError.invalid(path, newVal ?? null, fieldImmutableErrorMsg)];
}

/** ValidateNoNewFinalizers: `%#v` of the sorted extra names, as Go prints a []string. */
export function validateNoNewFinalizers(
  newFinalizers: readonly string[] | undefined,
  oldFinalizers: readonly string[] | undefined,
  path: FieldPath,
): ErrorList {
  const old = new Set(oldFinalizers ?? []);
  const extra = [...new Set((newFinalizers ?? []).filter((f) => !old.has(f)))].sort();
  if (extra.length === 0) return [];
  const detail = `no new finalizers can be added if the object is being deleted, found new finalizers []string{${extra
    .map(goQuote)
    .join(', ')}}`;
  return [FieldError.forbidden(path, detail)];
}

/** The metadata of an object being updated, compared with the stored one. */
export function validateObjectMetaUpdate(
  newMeta: ObjectMeta,
  oldMeta: ObjectMeta,
  path?: FieldPath,
): ErrorList {
  const p = path ?? FieldPath.of('metadata');
  const errs: ErrorList = [];
  if ((oldMeta.deletionTimestamp ?? '') !== '') {
    errs.push(...validateNoNewFinalizers(newMeta.finalizers, oldMeta.finalizers, p.child('finalizers')));
  }
  const rv = newMeta.resourceVersion ?? '';
  if (rv === '')
    errs.push(FieldError.invalid(p.child('resourceVersion'), rv, 'must be specified for an update'));
  const generation = newMeta.generation ?? 0;
  if (generation < (oldMeta.generation ?? 0)) {
    errs.push(FieldError.invalid(p.child('generation'), generation, 'must not be decremented'));
  }
  const immutable: readonly (keyof ObjectMeta)[] = [
    'name',
    'namespace',
    'uid',
    'creationTimestamp',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
  ];
  for (const key of immutable) {
    const fallback = key === 'deletionTimestamp' || key === 'deletionGracePeriodSeconds' ? null : '';
    errs.push(...validateImmutableField(newMeta[key] ?? fallback, oldMeta[key] ?? fallback, p.child(key)));
  }
  errs.push(...validateLabels(newMeta.labels, p.child('labels')));
  errs.push(...validateAnnotations(newMeta.annotations, p.child('annotations')));
  errs.push(...validateOwnerReferences(newMeta.ownerReferences, p.child('ownerReferences')));
  errs.push(...validateManagedFields(newMeta.managedFields, p.child('managedFields')));
  return errs;
}
