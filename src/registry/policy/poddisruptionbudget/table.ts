// `kubectl get poddisruptionbudgets` columns: NAME MIN AVAILABLE MAX UNAVAILABLE ALLOWED DISRUPTIONS
// AGE (printPodDisruptionBudget in pkg/printers/internalversion/printers.go).
import type { PodDisruptionBudget } from '../../../api/policy/v1/pod-disruption-budget.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

const column = (name: string, type: string, description: string) =>
  ({ name, type, format: '', description, priority: 0 }) as const;

export const podDisruptionBudgetTableConvertor: TableConvertor = tableConvertorFor<PodDisruptionBudget>({
  columns: [
    nameColumn,
    column('Min Available', 'string', 'At least this many pods must stay available.'),
    column('Max Unavailable', 'string', 'At most this many pods may be unavailable.'),
    column('Allowed Disruptions', 'integer', 'How many pod disruptions are allowed now.'),
    ageColumn,
  ],
  cells: (pdb, now) => [
    pdb.metadata?.name ?? '',
    String(pdb.spec?.minAvailable ?? 'N/A'),
    String(pdb.spec?.maxUnavailable ?? 'N/A'),
    pdb.status?.disruptionsAllowed ?? 0,
    translateTimestampSince(pdb.metadata?.creationTimestamp, now),
  ],
});
