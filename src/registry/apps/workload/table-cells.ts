// Cells the workload printers share (pkg/printers/internalversion/printers.go).
import type { Container } from '../../../api/core/v1/container.js';
import type { LabelSelector } from '../../../api/meta/v1/label-selector.js';
import type { TableColumnDefinition } from '../../../api/table.js';
import { labelSelectorAsSelector } from '../../../machinery/labels/index.js';
import { compareGoStrings } from '../../../machinery/validation/index.js';

/** layoutContainerCells: container names and images, comma-separated. */
export function layoutContainerCells(containers: readonly Container[] | undefined): [string, string] {
  const list = containers ?? [];
  return [list.map((c) => c.name).join(','), list.map((c) => c.image ?? '').join(',')];
}

/** metav1.FormatLabelSelector: `<none>` for a selector that selects everything or nothing. */
export function formatLabelSelector(ps: LabelSelector | undefined): string {
  const converted = labelSelectorAsSelector(ps);
  if (!converted.ok) return '<error>';
  const text = converted.selector.toString();
  return text === '' ? '<none>' : text;
}

/** The selector's text as printDeployment shows it: empty when it selects everything. */
export function selectorString(ps: LabelSelector | undefined): string {
  const converted = labelSelectorAsSelector(ps);
  return converted.ok ? converted.selector.toString() : '<invalid>';
}

/** labels.FormatLabels: sorted `k=v` pairs, `<none>` when there are none. */
export function formatLabels(labels: Readonly<Record<string, string>> | undefined): string {
  const keys = Object.keys(labels ?? {}).sort(compareGoStrings);
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${labels?.[k] ?? ''}`).join(',');
}

/** A column definition with kube's empty format. */
export function column(name: string, type: string, description: string): TableColumnDefinition {
  return { name, type, format: '', description, priority: 0 };
}

/** A column only the wide output shows. */
export function wideColumn(name: string, type: string, description: string): TableColumnDefinition {
  return { ...column(name, type, description), priority: 1 };
}

/** The CONTAINERS and IMAGES columns of the wide output. */
export const containerColumns: readonly TableColumnDefinition[] = [
  wideColumn('Containers', 'string', 'Names of each container in the template.'),
  wideColumn('Images', 'string', 'Images referenced by each container in the template.'),
];
