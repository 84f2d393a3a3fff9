// `kubectl get csidrivers` columns: NAME ATTACHREQUIRED PODINFOONMOUNT STORAGECAPACITY TOKENREQUESTS
// REQUIRESREPUBLISH MODES AGE (printCSIDriver in pkg/printers/internalversion/printers.go).
import type { CSIDriver } from '../../../api/storage/v1/csi-driver.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

const column = (name: string, type: string, description: string) =>
  ({ name, type, format: '', description, priority: 0 }) as const;

export const csiDriverTableConvertor: TableConvertor = tableConvertorFor<CSIDriver>({
  columns: [
    nameColumn,
    column('AttachRequired', 'boolean', 'Whether volumes must be attached before they are mounted.'),
    column('PodInfoOnMount', 'boolean', 'Whether pod information is passed on mount.'),
    column('StorageCapacity', 'boolean', 'Whether scheduling considers the capacity the driver reports.'),
    column('TokenRequests', 'string', 'The audiences of the tokens the driver needs.'),
    column('RequiresRepublish', 'boolean', 'Whether volumes are published again periodically.'),
    column('Modes', 'string', 'The volume lifecycle modes the driver supports.'),
    ageColumn,
  ],
  cells: (d, now) => {
    const modes = (d.spec.volumeLifecycleModes ?? []).join(',');
    const tokens =
      d.spec.tokenRequests === undefined ? '<unset>' : d.spec.tokenRequests.map((t) => t.audience).join(',');
    return [
      d.metadata?.name ?? '',
      d.spec.attachRequired ?? true,
      d.spec.podInfoOnMount ?? false,
      d.spec.storageCapacity ?? false,
      tokens,
      d.spec.requiresRepublish ?? false,
      modes === '' ? '<none>' : modes,
      translateTimestampSince(d.metadata?.creationTimestamp, now),
    ];
  },
});
