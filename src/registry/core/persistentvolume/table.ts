// `kubectl get persistentvolumes` columns: NAME CAPACITY ACCESS MODES RECLAIM POLICY STATUS CLAIM
// STORAGECLASS VOLUMEATTRIBUTESCLASS REASON AGE, wide: VOLUMEMODE (printPersistentVolume in
// pkg/printers/internalversion/printers.go, 1.33).
import { storageClassOf, type PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import type { TableColumnDefinition } from '../../../api/table.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

const accessModeShort: readonly (readonly [string, string])[] = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];

export const column = (name: string, description: string, priority = 0): TableColumnDefinition => ({
  name,
  type: 'string',
  format: '',
  description,
  priority,
});

/** helper.GetAccessModesAsString: RWO, ROX, RWX, RWOP in that order, each once. */
export function accessModesString(modes: readonly string[] | undefined): string {
  const given = new Set(modes ?? []);
  return accessModeShort
    .filter(([mode]) => given.has(mode))
    .map(([, short]) => short)
    .join(',');
}

export const persistentVolumeTableConvertor: TableConvertor = tableConvertorFor<PersistentVolume>({
  columns: [
    nameColumn,
    column(
      'Capacity',
      "capacity is the description of the persistent volume's resources and capacity. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity",
    ),
    column(
      'Access Modes',
      'accessModes contains all ways the volume can be mounted. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes',
    ),
    column(
      'Reclaim Policy',
      'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must be supported by the volume plugin underlying this PersistentVolume. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming',
    ),
    column(
      'Status',
      'phase indicates if a volume is available, bound to a claim, or released by a claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase',
    ),
    column(
      'Claim',
      'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the authoritative bind between PV and PVC. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding',
    ),
    column('StorageClass', 'StorageClass of the pv'),
    column('VolumeAttributesClass', 'VolumeAttributesClass of the pv'),
    column(
      'Reason',
      'reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.',
    ),
    ageColumn,
    column(
      'VolumeMode',
      'volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state. Value of Filesystem is implied when not included in spec.',
      1,
    ),
  ],
  cells: (pv, now) => {
    const spec = pv.spec ?? {};
    const claim =
      spec.claimRef === undefined ? '' : `${spec.claimRef.namespace ?? ''}/${spec.claimRef.name ?? ''}`;
    const phase = (pv.metadata?.deletionTimestamp ?? '') !== '' ? 'Terminating' : (pv.status?.phase ?? '');
    return [
      pv.metadata?.name ?? '',
      spec.capacity?.['storage'] ?? '0',
      accessModesString(spec.accessModes),
      spec.persistentVolumeReclaimPolicy ?? '',
      phase,
      claim,
      storageClassOf(pv.metadata, spec.storageClassName),
      spec.volumeAttributesClassName ?? '<unset>',
      pv.status?.reason ?? '',
      translateTimestampSince(pv.metadata?.creationTimestamp, now),
      spec.volumeMode ?? '<unset>',
    ];
  },
});
