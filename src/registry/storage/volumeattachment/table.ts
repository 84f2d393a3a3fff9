// `kubectl get volumeattachments` columns: NAME ATTACHER PV NODE ATTACHED AGE (printVolumeAttachment
// in pkg/printers/internalversion/printers.go).
import type { VolumeAttachment } from '../../../api/storage/v1/volume-attachment.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

const column = (name: string, type: string, description: string) =>
  ({ name, type, format: '', description, priority: 0 }) as const;

export const volumeAttachmentTableConvertor: TableConvertor = tableConvertorFor<VolumeAttachment>({
  columns: [
    nameColumn,
    column('Attacher', 'string', 'The volume driver that attaches.'),
    column('PV', 'string', 'The PersistentVolume attached.'),
    column('Node', 'string', 'The node the volume is attached to.'),
    column('Attached', 'boolean', 'Whether the volume is attached.'),
    ageColumn,
  ],
  cells: (va, now) => [
    va.metadata?.name ?? '',
    va.spec.attacher,
    va.spec.source.persistentVolumeName ?? '',
    va.spec.nodeName,
    va.status?.attached ?? false,
    translateTimestampSince(va.metadata?.creationTimestamp, now),
  ],
});
