// `kubectl get deployments` columns: NAME READY UP-TO-DATE AVAILABLE AGE, wide: CONTAINERS IMAGES
// SELECTOR (printDeployment in pkg/printers/internalversion/printers.go).
import type { Deployment } from '../../../api/apps/v1/deployment.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';
import {
  column,
  wideColumn,
  containerColumns,
  layoutContainerCells,
  selectorString,
} from '../workload/table-cells.js';

export const deploymentTableConvertor: TableConvertor = tableConvertorFor<Deployment>({
  columns: [
    nameColumn,
    column('Ready', 'string', 'Number of the pod with ready state'),
    column(
      'Up-to-date',
      'integer',
      'Total number of non-terminated pods targeted by this deployment that have the desired template spec.',
    ),
    column(
      'Available',
      'integer',
      'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.',
    ),
    ageColumn,
    ...containerColumns,
    wideColumn(
      'Selector',
      'string',
      'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.',
    ),
  ],
  cells: (d, now) => {
    const status = d.status ?? {};
    const [names, images] = layoutContainerCells(d.spec?.template?.spec?.containers);
    return [
      d.metadata?.name ?? '',
      `${status.readyReplicas ?? 0}/${d.spec?.replicas ?? 0}`,
      status.updatedReplicas ?? 0,
      status.availableReplicas ?? 0,
      translateTimestampSince(d.metadata?.creationTimestamp, now),
      names,
      images,
      selectorString(d.spec?.selector),
    ];
  },
});
