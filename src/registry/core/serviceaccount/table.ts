// `kubectl get serviceaccounts` columns: NAME SECRETS AGE (pkg/printers/internalversion/printers.go).
import type { ServiceAccount } from '../../../api/core/v1/service-account.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

export const serviceAccountTableConvertor: TableConvertor = tableConvertorFor<ServiceAccount>({
  columns: [
    nameColumn,
    {
      name: 'Secrets',
      type: 'string',
      format: '',
      description: 'The secrets pods running as this service account may use.',
      priority: 0,
    },
    ageColumn,
  ],
  cells: (sa, now) => [
    sa.metadata?.name ?? '',
    (sa.secrets ?? []).length,
    translateTimestampSince(sa.metadata?.creationTimestamp, now),
  ],
});
