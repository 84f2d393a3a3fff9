// `kubectl get csinodes` columns: NAME DRIVERS AGE (printCSINode in pkg/printers/internalversion/printers.go).
import type { CSINode } from '../../../api/storage/v1/csi-node.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

export const csiNodeTableConvertor: TableConvertor = tableConvertorFor<CSINode>({
  columns: [
    nameColumn,
    {
      name: 'Drivers',
      type: 'integer',
      format: '',
      description: 'How many CSI drivers the node has.',
      priority: 0,
    },
    ageColumn,
  ],
  cells: (node, now) => [
    node.metadata?.name ?? '',
    node.spec.drivers.length,
    translateTimestampSince(node.metadata?.creationTimestamp, now),
  ],
});
