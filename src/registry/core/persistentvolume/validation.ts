// PersistentVolume validation: ValidatePersistentVolume(+Update, +StatusUpdate) and the helpers
// claims share with volumes (pkg/apis/core/validation/validation.go).
import {
  persistentVolumeAccessModes,
  persistentVolumeModes,
  persistentVolumeReclaimPolicies,
  type PersistentVolume,
  type PersistentVolumeSpec,
} from '../../../api/core/v1/persistent-volume.js';
import {
  FieldError,
  FieldPath,
  nameIsDNSSubdomain,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { jsonEqual } from '../../generic/object-meta.js';
import { validateImmutableField } from '../../generic/validate-meta-update.js';
import { validateCoreObjectMeta, validateCoreObjectMetaUpdate } from '../namespace/finalizer-names.js';
import { quantityOf, quantitySign } from '../pod/quantity.js';
import { validateNodeSelector, validateVolumeSource } from './volume-source.js';

/** Access modes given, each supported, ReadWriteOncePod alone. */
export function validateAccessModes(modes: readonly string[], at: FieldPath): ErrorList {
  const errs: ErrorList = [];
  let rwop = false;
  let other = false;
  for (const mode of modes) {
    if (!(persistentVolumeAccessModes as readonly string[]).includes(mode)) {
      errs.push(FieldError.notSupported(at, mode, persistentVolumeAccessModes));
    }
    if (mode === 'ReadWriteOncePod') rwop = true;
    else other = true;
  }
  if (rwop && other)
    errs.push(FieldError.forbidden(at, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

/** ValidatePositiveQuantityValue, with a parse check kube's decoder does earlier. */
export function validatePositiveQuantity(value: string, at: FieldPath): ErrorList {
  const n = quantityOf(value);
  if (n === undefined) {
    return [
      FieldError.invalid(
        at,
        value,
        "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
      ),
    ];
  }
  return quantitySign(n) <= 0 ? [FieldError.invalid(at, value, 'must be greater than zero')] : [];
}

/** ValidateClassName (a DNS subdomain) for storageClassName. */
export function validateClassName(name: string, at: FieldPath): ErrorList {
  return nameIsDNSSubdomain(name, false).map((msg) => FieldError.invalid(at, name, msg));
}

export function validateVolumeMode(mode: string | undefined, at: FieldPath): ErrorList {
  if (mode === undefined || (persistentVolumeModes as readonly string[]).includes(mode)) return [];
  return [FieldError.notSupported(at, mode, persistentVolumeModes)];
}

function validateCapacity(spec: PersistentVolumeSpec, at: FieldPath): ErrorList {
  const capacity = spec.capacity ?? {};
  const names = Object.keys(capacity);
  const errs: ErrorList = [];
  if (names.length === 0) errs.push(FieldError.required(at));
  if (!names.includes('storage') || names.length > 1) {
    errs.push(FieldError.notSupported(at, spec.capacity ?? null, ['storage']));
  }
  for (const [name, q] of Object.entries(capacity)) errs.push(...validatePositiveQuantity(q, at.key(name)));
  return errs;
}

/** ValidatePersistentVolumeSpec for a PersistentVolume object (not an inline spec). */
export function validatePersistentVolumeSpec(spec: PersistentVolumeSpec, at: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const modes = spec.accessModes ?? [];
  if (modes.length === 0) errs.push(FieldError.required(at.child('accessModes')));
  errs.push(...validateAccessModes(modes, at.child('accessModes')));
  errs.push(...validateCapacity(spec, at.child('capacity')));
  const policy = spec.persistentVolumeReclaimPolicy ?? '';
  if (policy !== '' && !(persistentVolumeReclaimPolicies as readonly string[]).includes(policy)) {
    errs.push(
      FieldError.notSupported(
        at.child('persistentVolumeReclaimPolicy'),
        policy,
        persistentVolumeReclaimPolicies,
      ),
    );
  }
  const affinity = spec.nodeAffinity;
  if (affinity !== undefined) {
    const ap = at.child('nodeAffinity', 'required');
    if (affinity.required === undefined)
      errs.push(FieldError.required(ap, 'must specify required node constraints'));
    else errs.push(...validateNodeSelector(affinity.required, ap));
  }
  errs.push(...validateVolumeSource(spec, at, affinity !== undefined));
  const hostPath = spec.hostPath?.path;
  if (hostPath !== undefined && /^\/+$/.test(hostPath) && policy === 'Recycle') {
    errs.push(
      FieldError.forbidden(
        at.child('persistentVolumeReclaimPolicy'),
        "may not be 'recycle' for a hostPath mount of '/'",
      ),
    );
  }
  if ((spec.storageClassName ?? '') !== '') {
    errs.push(...validateClassName(spec.storageClassName ?? '', at.child('storageClassName')));
  }
  errs.push(...validateVolumeMode(spec.volumeMode, at.child('volumeMode')));
  const vac = spec.volumeAttributesClassName;
  if (vac !== undefined) {
    if (vac === '')
      errs.push(FieldError.required(at.child('volumeAttributesClassName'), 'an empty string is disallowed'));
    else errs.push(...validateClassName(vac, at.child('volumeAttributesClassName')));
  }
  return errs;
}

/** ValidatePersistentVolume: a DNS subdomain name, no namespace, a valid spec. */
export function validatePersistentVolume(pv: PersistentVolume): ErrorList {
  return [
    ...validateCoreObjectMeta(pv.metadata ?? {}, {
      requiresNamespace: false,
      validateName: nameIsDNSSubdomain,
    }),
    ...validatePersistentVolumeSpec(pv.spec ?? {}, FieldPath.of('spec')),
  ];
}

const sourceFields = ['hostPath', 'nfs', 'local', 'csi'] as const;

/** ValidatePersistentVolumeUpdate: the volume source and volumeMode are immutable. */
export function validatePersistentVolumeUpdate(pv: PersistentVolume, old: PersistentVolume): ErrorList {
  const errs = [
    ...validateCoreObjectMetaUpdate(pv.metadata ?? {}, old.metadata ?? {}),
    ...validatePersistentVolume(pv),
  ];
  const source = (p: PersistentVolume): unknown => sourceFields.map((f) => p.spec?.[f] ?? null);
  if (!jsonEqual(source(pv), source(old))) {
    errs.push(
      FieldError.forbidden(
        FieldPath.of('spec', 'persistentvolumesource'),
        'spec.persistentvolumesource is immutable after creation',
      ),
    );
  }
  errs.push(...validateImmutableField(pv.spec?.volumeMode, old.spec?.volumeMode, FieldPath.of('volumeMode')));
  if (old.spec?.nodeAffinity !== undefined && !jsonEqual(pv.spec?.nodeAffinity, old.spec.nodeAffinity)) {
    errs.push(
      ...validateImmutableField(pv.spec?.nodeAffinity, old.spec.nodeAffinity, FieldPath.of('nodeAffinity')),
    );
  }
  return errs;
}

/** ValidatePersistentVolumeStatusUpdate. */
export function validatePersistentVolumeStatusUpdate(pv: PersistentVolume, old: PersistentVolume): ErrorList {
  return validateCoreObjectMetaUpdate(pv.metadata ?? {}, old.metadata ?? {});
}
