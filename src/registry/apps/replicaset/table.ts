// `kubectl get replicasets` columns: NAME DESIRED CURRENT READY AGE, wide: CONTAINERS IMAGES
// SELECTOR (printReplicaSet in pkg/printers/internalversion/printers.go).
import type { ReplicaSet } from '../../../api/apps/v1/replica-set.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';
import {
  column,
  containerColumns,
  formatLabelSelector,
  layoutContainerCells,
  wideColumn,
} from '../workload/table-cells.js';

export const replicaSetTableConvertor: TableConvertor = tableConvertorFor<ReplicaSet>({
  columns: [
    nameColumn,
    column(
      'Desired',
      'integer',
      'Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller',
    ),
    column(
      'Current',
      'integer',
      'Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller',
    ),
    column('Ready', 'integer', 'The number of ready replicas for this replica set.'),
    ageColumn,
    ...containerColumns,
    wideColumn(
      'Selector',
      'string',
      "Selector is a label query over pods that should match the replica count. Label keys and values that must match in order to be controlled by this replica set. It must match the pod template's labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
    ),
  ],
  cells: (rs, now) => {
    const [names, images] = layoutContainerCells(rs.spec?.template?.spec?.containers);
    return [
      rs.metadata?.name ?? '',
      rs.spec?.replicas ?? 0,
      rs.status?.replicas ?? 0,
      rs.status?.readyReplicas ?? 0,
      translateTimestampSince(rs.metadata?.creationTimestamp, now),
      names,
      images,
      formatLabelSelector(rs.spec?.selector),
    ];
  },
});
