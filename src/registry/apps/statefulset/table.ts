// `kubectl get statefulsets` columns: NAME READY AGE, wide: CONTAINERS IMAGES (printStatefulSet in
// pkg/printers/internalversion/printers.go).
import type { StatefulSet } from '../../../api/apps/v1/stateful-set.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';
import { column, containerColumns, layoutContainerCells } from '../workload/table-cells.js';

export const statefulSetTableConvertor: TableConvertor = tableConvertorFor<StatefulSet>({
  columns: [
    nameColumn,
    column('Ready', 'string', 'Number of the pod with ready state'),
    ageColumn,
    ...containerColumns,
  ],
  cells: (sts, now) => {
    const [names, images] = layoutContainerCells(sts.spec?.template?.spec?.containers);
    return [
      sts.metadata?.name ?? '',
      `${sts.status?.readyReplicas ?? 0}/${sts.spec?.replicas ?? 0}`,
      translateTimestampSince(sts.metadata?.creationTimestamp, now),
      names,
      images,
    ];
  },
});
