// `kubectl get podtemplates` columns: NAME CONTAINERS IMAGES POD LABELS (printPodTemplate in
// pkg/printers/internalversion/printers.go), and the cells the workload kinds share.
import type { Container } from '../../../api/core/v1/container.js';
import type { PodTemplate } from '../../../api/core/v1/pod-template.js';
import { compareGoStrings } from '../../../machinery/validation/index.js';
import { nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

/** layoutContainerCells: container names and images, each joined with commas. */
export function layoutContainerCells(containers: readonly Container[] | undefined): {
  names: string;
  images: string;
} {
  const list = containers ?? [];
  return { names: list.map((c) => c.name).join(','), images: list.map((c) => c.image ?? '').join(',') };
}

/** labels.FormatLabels: `k=v` pairs sorted by key, `<none>` for none. */
export function formatLabels(labels: Readonly<Record<string, string>> | undefined): string {
  const keys = Object.keys(labels ?? {}).sort(compareGoStrings);
  if (keys.length === 0) return '<none>';
  return keys.map((k) => `${k}=${labels?.[k] ?? ''}`).join(',');
}

const text = (name: string, description: string): typeof nameColumn => ({
  name,
  type: 'string',
  format: '',
  description,
  priority: 0,
});

export const podTemplateTableConvertor: TableConvertor = tableConvertorFor<PodTemplate>({
  columns: [
    nameColumn,
    text('Containers', 'Names of each container in the template.'),
    text('Images', 'Images referenced by each container in the template.'),
    text('Pod Labels', 'The labels for the pod template.'),
  ],
  cells: (obj) => {
    const { names, images } = layoutContainerCells(obj.template?.spec?.containers);
    return [obj.metadata?.name ?? '', names, images, formatLabels(obj.template?.metadata?.labels)];
  },
});
