// `kubectl get networkpolicies` columns: NAME POD-SELECTOR AGE (printNetworkPolicy in
// pkg/printers/internalversion/printers.go).
import type { NetworkPolicy } from '../../../api/networking/v1/network-policy.js';
import { formatLabelSelector } from '../../apps/workload/table-cells.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

export const networkPolicyTableConvertor: TableConvertor = tableConvertorFor<NetworkPolicy>({
  columns: [
    nameColumn,
    {
      name: 'Pod-Selector',
      type: 'string',
      format: '',
      description: 'The pods the policy applies to.',
      priority: 0,
    },
    ageColumn,
  ],
  cells: (np, now) => [
    np.metadata?.name ?? '',
    formatLabelSelector(np.spec?.podSelector ?? {}),
    translateTimestampSince(np.metadata?.creationTimestamp, now),
  ],
});
