// `kubectl get podmetrics` / `nodemetrics` columns as metrics-server prints them (pkg/api/table.go
// addPodMetricsToTable, addNodeMetricsToTable): the name, each resource's usage (a pod's summed over
// its containers), and the window.
import type { TableColumnDefinition } from '../../../api/table.js';
import type { ResourceList } from '../../../api/core/v1/limit-range.js';
import type { NodeMetrics, PodMetrics } from '../../../api/metrics/v1beta1/types.js';
import { addQuantities, mustParseQuantity, quantityString } from '../../../machinery/quantity/quantity.js';
import { tableConvertorFor } from '../../../registry/generic/table-convertor.js';
import type { TableConvertor } from '../../../registry/rest/capabilities.js';

const column = (name: string, format: string, description = ''): TableColumnDefinition => ({
  name,
  type: 'string',
  format,
  description,
  priority: 0,
});

const resources = ['cpu', 'memory'] as const;

const columns: readonly TableColumnDefinition[] = [
  column('Name', 'name', 'Name of the resource'),
  ...resources.map((r) => column(r, 'quantity')),
  column('Window', 'duration'),
];

function summed(lists: readonly ResourceList[], resource: string): string {
  let sum = mustParseQuantity('0');
  for (const list of lists) {
    const text = list[resource];
    if (text !== undefined) sum = addQuantities(sum, mustParseQuantity(text));
  }
  return quantityString(sum);
}

export const podMetricsTableConvertor: TableConvertor = tableConvertorFor<PodMetrics>({
  columns,
  cells: (m) => {
    const usages = m.containers.map((c) => c.usage);
    return [m.metadata?.name ?? '', ...resources.map((r) => summed(usages, r)), m.window];
  },
});

export const nodeMetricsTableConvertor: TableConvertor = tableConvertorFor<NodeMetrics>({
  columns,
  cells: (m) => [m.metadata?.name ?? '', ...resources.map((r) => summed([m.usage], r)), m.window],
});
