// `kubectl get componentstatuses` columns: NAME STATUS MESSAGE ERROR (printComponentStatus in
// pkg/printers/internalversion/printers.go).
import type { ComponentStatus } from '../../../api/core/v1/component-status.js';
import type { TableColumnDefinition } from '../../../api/table.js';
import { nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

const column = (name: string, description: string): TableColumnDefinition => ({
  name,
  type: 'string',
  format: '',
  description,
  priority: 0,
});

export const componentStatusTableConvertor: TableConvertor = tableConvertorFor<ComponentStatus>({
  columns: [
    nameColumn,
    column('Status', 'Status of the component conditions'),
    column('Message', 'Message of the component conditions'),
    column('Error', 'Error of the component conditions'),
  ],
  cells: (cs) => {
    const healthy = (cs.conditions ?? []).find((c) => c.type === 'Healthy');
    const status = healthy === undefined ? 'Unknown' : healthy.status === 'True' ? 'Healthy' : 'Unhealthy';
    return [cs.metadata?.name ?? '', status, healthy?.message ?? '', healthy?.error ?? ''];
  },
});
