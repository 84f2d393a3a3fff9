// PersistentVolumeClaim validation: ValidatePersistentVolumeClaim(+Update, +StatusUpdate)
// (pkg/apis/core/validation/validation.go).
import type {
  PersistentVolumeClaim,
  PersistentVolumeClaimSpec,
} from '../../../api/core/v1/persistent-volume-claim.js';
import {
  FieldError,
  FieldPath,
  nameIsDNSSubdomain,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { jsonEqual } from '../../generic/object-meta.js';
import { validateImmutableField } from '../../generic/validate-meta-update.js';
import { validateCoreObjectMeta, validateCoreObjectMetaUpdate } from '../namespace/finalizer-names.js';
import { compareQuantityText, quantityOf } from '../pod/quantity.js';
import {
  validateAccessModes,
  validateClassName,
  validatePositiveQuantity,
  validateVolumeMode,
} from '../persistentvolume/validation.js';
import { deepCopyJSON } from '../../../machinery/json/deep-copy.js';
import { betaStorageClassAnnotation } from '../../../api/core/v1/persistent-volume.js';

const specImmutable =
  'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims';

/** ValidatePersistentVolumeClaimSpec. The storage request's path is `resources[storage]`, as kube's. */
export function validatePersistentVolumeClaimSpec(spec: PersistentVolumeClaimSpec, at: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const modes = spec.accessModes ?? [];
  if (modes.length === 0)
    errs.push(FieldError.required(at.child('accessModes'), 'at least 1 access mode is required'));
  errs.push(...validateAccessModes(modes, at.child('accessModes')));
  const storagePath = at.child('resources').key('storage');
  const storage = spec.resources?.requests?.['storage'];
  if (storage === undefined) errs.push(FieldError.required(storagePath));
  else errs.push(...validatePositiveQuantity(storage, storagePath));
  if ((spec.storageClassName ?? '') !== '') {
    errs.push(...validateClassName(spec.storageClassName ?? '', at.child('storageClassName')));
  }
  errs.push(...validateVolumeMode(spec.volumeMode, at.child('volumeMode')));
  const vac = spec.volumeAttributesClassName;
  if (vac !== undefined && vac !== '')
    errs.push(...validateClassName(vac, at.child('volumeAttributesClassName')));
  for (const ref of ['dataSource', 'dataSourceRef'] as const) {
    const source = spec[ref];
    if (source === undefined) continue;
    if ((source.name ?? '') === '') errs.push(FieldError.required(at.child(ref, 'name')));
    if ((source.kind ?? '') === '') errs.push(FieldError.required(at.child(ref, 'kind')));
  }
  return errs;
}

/** ValidatePersistentVolumeClaim: a DNS subdomain name in a namespace, a valid spec. */
export function validatePersistentVolumeClaim(pvc: PersistentVolumeClaim): ErrorList {
  return [
    ...validateCoreObjectMeta(pvc.metadata ?? {}, {
      requiresNamespace: true,
      validateName: nameIsDNSSubdomain,
    }),
    ...validatePersistentVolumeClaimSpec(pvc.spec ?? {}, FieldPath.of('spec')),
  ];
}

/** The spec with what an update may change taken from `pvc` into `old`'s copy. */
function comparableSpecs(pvc: PersistentVolumeClaim, old: PersistentVolumeClaim): [unknown, unknown] {
  const next: PersistentVolumeClaimSpec = deepCopyJSON(pvc.spec ?? {});
  const prev: PersistentVolumeClaimSpec = deepCopyJSON(old.spec ?? {});
  // volumeName may be set once, by the binder.
  if ((prev.volumeName ?? '') === '') {
    if (next.volumeName === undefined) delete prev.volumeName;
    else prev.volumeName = next.volumeName;
  }
  // A class set from nil is allowed when the beta annotation already names it.
  const annotated = old.metadata?.annotations?.[betaStorageClassAnnotation];
  if (prev.storageClassName === undefined && annotated !== undefined && next.storageClassName === annotated) {
    delete next.storageClassName;
  }
  // Bound claims may grow (or shrink back towards their capacity); the size check is separate.
  if (pvc.status?.phase === 'Bound' && next.resources?.requests !== undefined) {
    const oldStorage = prev.resources?.requests?.['storage'];
    if (oldStorage === undefined) delete next.resources.requests['storage'];
    else next.resources.requests['storage'] = oldStorage;
  }
  // volumeAttributesClassName may change on bound claims (VolumeAttributesClass modification).
  if (pvc.status?.phase === 'Bound') {
    if (next.volumeAttributesClassName === undefined) delete prev.volumeAttributesClassName;
    else prev.volumeAttributesClassName = next.volumeAttributesClassName;
  }
  return [next, prev];
}

/** ValidatePersistentVolumeClaimUpdate: the spec is immutable except a bound claim's size and class. */
export function validatePersistentVolumeClaimUpdate(
  pvc: PersistentVolumeClaim,
  old: PersistentVolumeClaim,
): ErrorList {
  const errs = [
    ...validateCoreObjectMetaUpdate(pvc.metadata ?? {}, old.metadata ?? {}),
    ...validatePersistentVolumeClaim(pvc),
  ];
  const [next, prev] = comparableSpecs(pvc, old);
  if (!jsonEqual(next, prev)) errs.push(FieldError.forbidden(FieldPath.of('spec'), specImmutable));
  const newSize = pvc.spec?.resources?.requests?.['storage'] ?? '0';
  const oldSize = old.spec?.resources?.requests?.['storage'] ?? '0';
  const statusSize = old.status?.capacity?.['storage'] ?? '0';
  // RecoverVolumeExpansionFailure (on by default in 1.33): shrinking stops above the actual capacity.
  if (compareQuantityText(newSize, oldSize) === -1 && (compareQuantityText(newSize, statusSize) ?? 1) <= 0) {
    errs.push(
      FieldError.forbidden(
        FieldPath.of('spec', 'resources', 'requests', 'storage'),
        'field can not be less than status.capacity',
      ),
    );
  }
  errs.push(
    ...validateImmutableField(pvc.spec?.volumeMode, old.spec?.volumeMode, FieldPath.of('volumeMode')),
  );
  return errs;
}

/** ValidatePersistentVolumeClaimStatusUpdate: capacity and allocated resources are quantities. */
export function validatePersistentVolumeClaimStatusUpdate(
  pvc: PersistentVolumeClaim,
  old: PersistentVolumeClaim,
): ErrorList {
  const errs = validateCoreObjectMetaUpdate(pvc.metadata ?? {}, old.metadata ?? {});
  for (const field of ['capacity', 'allocatedResources'] as const) {
    for (const [name, q] of Object.entries(pvc.status?.[field] ?? {})) {
      if (quantityOf(q) === undefined) {
        errs.push(
          FieldError.invalid(FieldPath.of('status', field).key(name), q, 'must be a valid resource quantity'),
        );
      }
    }
  }
  return errs;
}
