// Warnings for claims and claim templates (GetWarningsForPersistentVolumeClaim and
// GetWarningsForPersistentVolumeClaimSpec of pkg/api/persistentvolumeclaim/util.go): the retired
// beta storage class annotation, and storage sizes that are not whole bytes.
import type {
  PersistentVolumeClaim,
  PersistentVolumeClaimSpec,
} from '../../../api/core/v1/persistent-volume-claim.js';
import { betaStorageClassAnnotation } from '../../../api/core/v1/persistent-volume.js';
import { FieldPath } from '../../../machinery/validation/index.js';
import { fractionalBytes, fractionalBytesWarning } from '../../generic/fractional-bytes.js';

/** The warnings for a claim's spec found at `path` (a claim's, a template's, an ephemeral volume's). */
export function warningsForPersistentVolumeClaimSpec(
  path: FieldPath,
  spec: PersistentVolumeClaimSpec | undefined,
): string[] {
  const warnings: string[] = [];
  const request = fractionalBytes(spec?.resources?.requests?.storage);
  if (request !== undefined)
    warnings.push(fractionalBytesWarning(path.child('resources', 'requests').key('storage'), request));
  const limit = fractionalBytes(spec?.resources?.limits?.storage);
  if (limit !== undefined)
    warnings.push(fractionalBytesWarning(path.child('resources', 'limits').key('storage'), limit));
  return warnings;
}

/** The warnings for a claim, on create and on update alike. */
export function warningsForPersistentVolumeClaim(pvc: PersistentVolumeClaim): string[] {
  const warnings: string[] = [];
  if (pvc.metadata?.annotations?.[betaStorageClassAnnotation] !== undefined)
    warnings.push(
      `metadata.annotations[${betaStorageClassAnnotation}]: deprecated since v1.8; use "storageClassName" attribute instead`,
    );
  warnings.push(...warningsForPersistentVolumeClaimSpec(FieldPath.of('spec'), pvc.spec));
  return warnings;
}
