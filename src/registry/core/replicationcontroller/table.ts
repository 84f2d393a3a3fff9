// `kubectl get replicationcontrollers` columns: NAME DESIRED CURRENT READY AGE, wide: CONTAINERS
// IMAGES SELECTOR (printReplicationController in pkg/printers/internalversion/printers.go).
import type { ReplicationController } from '../../../api/core/v1/replication-controller.js';
import type { TableColumnDefinition } from '../../../api/table.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';
import { formatLabels, layoutContainerCells } from '../podtemplate/table.js';

const column = (
  name: string,
  type: string,
  opts: { description: string; priority?: number },
): TableColumnDefinition => ({
  name,
  type,
  format: '',
  description: opts.description,
  priority: opts.priority ?? 0,
});

export const replicationControllerTableConvertor: TableConvertor = tableConvertorFor<ReplicationController>({
  columns: [
    nameColumn,
    column('Desired', 'integer', {
      description:
        'Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller',
    }),
    column('Current', 'integer', {
      description:
        'Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller',
    }),
    column('Ready', 'integer', {
      description: 'The number of ready replicas for this replication controller.',
    }),
    ageColumn,
    column('Containers', 'string', { description: 'Names of each container in the template.', priority: 1 }),
    column('Images', 'string', {
      description: 'Images referenced by each container in the template.',
      priority: 1,
    }),
    column('Selector', 'string', {
      description:
        'Selector is a label query over pods that should match the Replicas count. If Selector is empty, it is defaulted to the labels present on the Pod template. Label keys and values that must match in order to be controlled by this replication controller, if empty defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
      priority: 1,
    }),
  ],
  cells: (rc, now) => {
    const { names, images } = layoutContainerCells(rc.spec?.template?.spec?.containers);
    return [
      rc.metadata?.name ?? '',
      rc.spec?.replicas ?? 0,
      rc.status?.replicas ?? 0,
      rc.status?.readyReplicas ?? 0,
      translateTimestampSince(rc.metadata?.creationTimestamp, now),
      names,
      images,
      formatLabels(rc.spec?.selector),
    ];
  },
});
