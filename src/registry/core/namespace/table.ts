// `kubectl get namespaces` columns: NAME STATUS AGE (pkg/printers/internalversion/printers.go).
import type { Namespace } from '../../../api/core/v1/namespace.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

export const namespaceTableConvertor: TableConvertor = tableConvertorFor<Namespace>({
  columns: [
    nameColumn,
    { name: 'Status', type: 'string', format: '', description: 'The status of the namespace', priority: 0 },
    ageColumn,
  ],
  cells: (ns, now) => [
    ns.metadata?.name ?? '',
    ns.status?.phase ?? '',
    translateTimestampSince(ns.metadata?.creationTimestamp, now),
  ],
});
