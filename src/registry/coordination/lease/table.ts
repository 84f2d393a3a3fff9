// `kubectl get leases` columns: NAME HOLDER AGE (printLease in pkg/printers/internalversion/printers.go).
import type { Lease } from '../../../api/coordination/v1/lease.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

export const leaseTableConvertor: TableConvertor = tableConvertorFor<Lease>({
  columns: [
    nameColumn,
    {
      name: 'Holder',
      type: 'string',
      format: '',
      description: 'The identity of the current holder of the lease.',
      priority: 0,
    },
    ageColumn,
  ],
  cells: (lease, now) => [
    lease.metadata?.name ?? '',
    lease.spec?.holderIdentity ?? '',
    translateTimestampSince(lease.metadata?.creationTimestamp, now),
  ],
});
