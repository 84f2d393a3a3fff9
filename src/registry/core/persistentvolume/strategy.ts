// PersistentVolume policy (pkg/registry/core/persistentvolume/strategy.go): create starts Pending
// with the phase transition time, updates keep status, /status keeps spec and stamps phase changes.
import type { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import { roundUpResourceList } from '../../../machinery/quantity/round-up-resource-list.js';
import { rfc3339 } from '../../generic/object-meta.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import {
  validatePersistentVolume,
  validatePersistentVolumeStatusUpdate,
  validatePersistentVolumeUpdate,
} from './validation.js';
import { warningsForPersistentVolume } from './warnings.js';

/**
 * SetDefaults_PersistentVolume (reclaim policy, volume mode) and SetDefaults_ResourceList on the
 * capacity. Not schema defaults: PersistentVolumeSpec is also a VolumeAttachment's inline spec, which
 * kube leaves without them.
 */
function setDefaults(pv: PersistentVolume): void {
  pv.spec ??= {};
  if ((pv.spec.persistentVolumeReclaimPolicy ?? '') === '') pv.spec.persistentVolumeReclaimPolicy = 'Retain';
  pv.spec.volumeMode ??= 'Filesystem';
  roundUpResourceList(pv.spec.capacity);
}

/** The PV strategies; `now` is the server's clock (ms), which stamps phase transitions. */
export function persistentVolumeStrategies(now: () => number): {
  readonly main: CreateStrategy<PersistentVolume> & UpdateStrategy<PersistentVolume>;
  readonly status: UpdateStrategy<PersistentVolume>;
} {
  const main = persistentVolumeStrategy(now);
  return { main, status: persistentVolumeStatusStrategy(main, now) };
}

const persistentVolumeStrategy = (now: () => number) =>
  ({
    namespaceScoped: false,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    defaultDecoded: setDefaults,
    prepareForCreate: (_ctx, pv) => {
      setDefaults(pv);
      pv.status = { phase: 'Pending', lastPhaseTransitionTime: rfc3339(new Date(now())) };
    },
    validate: (_ctx, pv) => validatePersistentVolume(pv),
    warningsOnCreate: (_ctx, pv) => warningsForPersistentVolume(pv),
    prepareForUpdate: (_ctx, pv, old) => {
      setDefaults(pv);
      if (old.status !== undefined) pv.status = old.status;
      else delete pv.status;
    },
    validateUpdate: (_ctx, pv, old) => validatePersistentVolumeUpdate(pv, old),
    warningsOnUpdate: (_ctx, pv) => warningsForPersistentVolume(pv),
  }) satisfies CreateStrategy<PersistentVolume> & UpdateStrategy<PersistentVolume>;

/** persistentvolumes/status: takes the status, keeps the spec, stamps a phase change. */
const persistentVolumeStatusStrategy = (
  main: CreateStrategy<PersistentVolume> & UpdateStrategy<PersistentVolume>,
  now: () => number,
) =>
  ({
    ...main,
    prepareForUpdate: (_ctx, pv, old) => {
      if (old.spec !== undefined) pv.spec = old.spec;
      else delete pv.spec;
      const phase = pv.status?.phase;
      const stamp = pv.status?.lastPhaseTransitionTime;
      if (
        pv.status !== undefined &&
        phase !== old.status?.phase &&
        (stamp === undefined || stamp === old.status?.lastPhaseTransitionTime)
      ) {
        pv.status.lastPhaseTransitionTime = rfc3339(new Date(now()));
      }
    },
    validateUpdate: (_ctx, pv, old) => validatePersistentVolumeStatusUpdate(pv, old),
    warningsOnUpdate: () => [],
  }) satisfies UpdateStrategy<PersistentVolume>;

/** Volumes are deleted at once (the pv-protection finalizer is a controller's, not the store's). */
export const persistentVolumeDeleteStrategy = {} satisfies DeleteStrategy<PersistentVolume>;
