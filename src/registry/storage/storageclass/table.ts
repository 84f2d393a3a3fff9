// `kubectl get storageclasses` columns: NAME PROVISIONER RECLAIMPOLICY VOLUMEBINDINGMODE
// ALLOWVOLUMEEXPANSION AGE, the default class marked `(default)` (printStorageClass in
// pkg/printers/internalversion/printers.go).
import { isDefaultStorageClass, type StorageClass } from '../../../api/storage/v1/storage-class.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

const column = (name: string, description: string) =>
  ({ name, type: 'string', format: '', description, priority: 0 }) as const;

export const storageClassTableConvertor: TableConvertor = tableConvertorFor<StorageClass>({
  columns: [
    nameColumn,
    column('Provisioner', 'The volume plugin that provisions volumes of the class.'),
    column('ReclaimPolicy', 'What happens to released volumes.'),
    column('VolumeBindingMode', 'When volumes are bound and provisioned.'),
    column('AllowVolumeExpansion', 'Whether volumes may be expanded.'),
    ageColumn,
  ],
  cells: (sc, now) => [
    `${sc.metadata?.name ?? ''}${isDefaultStorageClass(sc) ? ' (default)' : ''}`,
    sc.provisioner,
    sc.reclaimPolicy ?? 'Delete',
    sc.volumeBindingMode ?? 'Immediate',
    sc.allowVolumeExpansion ?? false,
    translateTimestampSince(sc.metadata?.creationTimestamp, now),
  ],
});
