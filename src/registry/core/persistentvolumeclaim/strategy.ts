// PersistentVolumeClaim policy (pkg/registry/core/persistentvolumeclaim/strategy.go): create starts
// Pending (kube's v1 default of the cleared status), updates keep status, /status keeps spec.
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import { roundUpResourceList } from '../../../machinery/quantity/round-up-resource-list.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import {
  validatePersistentVolumeClaim,
  validatePersistentVolumeClaimStatusUpdate,
  validatePersistentVolumeClaimUpdate,
} from './validation.js';
import { warningsForPersistentVolumeClaim } from './warnings.js';

/** SetDefaults_PersistentVolumeClaimSpec's volume mode and SetDefaults_ResourceList on every list: claims and claim templates. */
export function setPersistentVolumeClaimDefaults(pvc: PersistentVolumeClaim): void {
  const spec = (pvc.spec ??= {});
  spec.volumeMode ??= 'Filesystem';
  roundUpResourceList(spec.resources?.limits);
  roundUpResourceList(spec.resources?.requests);
  roundUpResourceList(pvc.status?.capacity);
  roundUpResourceList(pvc.status?.allocatedResources);
}

export const persistentVolumeClaimStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaultDecoded: setPersistentVolumeClaimDefaults,
  prepareForCreate: (_ctx, pvc) => {
    setPersistentVolumeClaimDefaults(pvc);
    pvc.status = { phase: 'Pending' };
  },
  validate: (_ctx, pvc) => validatePersistentVolumeClaim(pvc),
  warningsOnCreate: (_ctx, pvc) => warningsForPersistentVolumeClaim(pvc),
  prepareForUpdate: (_ctx, pvc, old) => {
    setPersistentVolumeClaimDefaults(pvc);
    if (old.status !== undefined) pvc.status = old.status;
    else delete pvc.status;
  },
  validateUpdate: (_ctx, pvc, old) => validatePersistentVolumeClaimUpdate(pvc, old),
  warningsOnUpdate: (_ctx, pvc) => warningsForPersistentVolumeClaim(pvc),
} satisfies CreateStrategy<PersistentVolumeClaim> & UpdateStrategy<PersistentVolumeClaim>;

/** persistentvolumeclaims/status: takes the status, keeps the spec. */
export const persistentVolumeClaimStatusStrategy = {
  ...persistentVolumeClaimStrategy,
  prepareForUpdate: (_ctx, pvc, old) => {
    setPersistentVolumeClaimDefaults(pvc);
    if (old.spec !== undefined) pvc.spec = old.spec;
    else delete pvc.spec;
  },
  validateUpdate: (_ctx, pvc, old) => validatePersistentVolumeClaimStatusUpdate(pvc, old),
  warningsOnUpdate: () => [],
} satisfies UpdateStrategy<PersistentVolumeClaim>;

/** Claims are deleted at once (the pvc-protection finalizer is a controller's, not the store's). */
export const persistentVolumeClaimDeleteStrategy = {} satisfies DeleteStrategy<PersistentVolumeClaim>;
