// `kubectl get persistentvolumeclaims` columns: NAME STATUS VOLUME CAPACITY ACCESS MODES STORAGECLASS
// VOLUMEATTRIBUTESCLASS AGE, wide: VOLUMEMODE (printPersistentVolumeClaim in
// pkg/printers/internalversion/printers.go, 1.33). Capacity and access modes show once bound.
import type { PersistentVolumeClaim } from '../../../api/core/v1/persistent-volume-claim.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';
import { storageClassOf } from '../../../api/core/v1/persistent-volume.js';
import { accessModesString, column } from '../persistentvolume/table.js';

export const persistentVolumeClaimTableConvertor: TableConvertor = tableConvertorFor<PersistentVolumeClaim>({
  columns: [
    nameColumn,
    column('Status', 'phase represents the current phase of PersistentVolumeClaim.'),
    column('Volume', 'volumeName is the binding reference to the PersistentVolume backing this claim.'),
    column('Capacity', 'capacity represents the actual resources of the underlying volume.'),
    column(
      'Access Modes',
      'accessModes contains the actual access modes the volume backing the PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1',
    ),
    column('StorageClass', 'StorageClass of the pvc'),
    column('VolumeAttributesClass', 'VolumeAttributesClass of the pvc'),
    ageColumn,
    column(
      'VolumeMode',
      'volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.',
      1,
    ),
  ],
  cells: (pvc, now) => {
    const spec = pvc.spec ?? {};
    const bound = (spec.volumeName ?? '') !== '';
    const phase = (pvc.metadata?.deletionTimestamp ?? '') !== '' ? 'Terminating' : (pvc.status?.phase ?? '');
    return [
      pvc.metadata?.name ?? '',
      phase,
      spec.volumeName ?? '',
      bound ? (pvc.status?.capacity?.['storage'] ?? '0') : '',
      bound ? accessModesString(pvc.status?.accessModes) : '',
      storageClassOf(pvc.metadata, spec.storageClassName),
      spec.volumeAttributesClassName ?? '<unset>',
      translateTimestampSince(pvc.metadata?.creationTimestamp, now),
      spec.volumeMode ?? '<unset>',
    ];
  },
});
