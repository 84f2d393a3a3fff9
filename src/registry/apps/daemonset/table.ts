// `kubectl get daemonsets` columns: NAME DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE SELECTOR AGE,
// wide: CONTAINERS IMAGES SELECTOR (printDaemonSet in pkg/printers/internalversion/printers.go).
import type { DaemonSet } from '../../../api/apps/v1/daemon-set.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';
import {
  column,
  containerColumns,
  formatLabels,
  formatLabelSelector,
  layoutContainerCells,
  wideColumn,
} from '../workload/table-cells.js';

export const daemonSetTableConvertor: TableConvertor = tableConvertorFor<DaemonSet>({
  columns: [
    nameColumn,
    column(
      'Desired',
      'integer',
      'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/',
    ),
    column(
      'Current',
      'integer',
      'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/',
    ),
    column(
      'Ready',
      'integer',
      'numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.',
    ),
    column('Up-to-date', 'integer', 'The total number of nodes that are running updated daemon pod'),
    column(
      'Available',
      'integer',
      'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)',
    ),
    column(
      'Node Selector',
      'string',
      "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/",
    ),
    ageColumn,
    ...containerColumns,
    wideColumn(
      'Selector',
      'string',
      "A label query over pods that are managed by the daemon set. Must match in order to be controlled. It must match the pod template's labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
    ),
  ],
  cells: (ds, now) => {
    const status = ds.status;
    const [names, images] = layoutContainerCells(ds.spec?.template?.spec?.containers);
    return [
      ds.metadata?.name ?? '',
      status?.desiredNumberScheduled ?? 0,
      status?.currentNumberScheduled ?? 0,
      status?.numberReady ?? 0,
      status?.updatedNumberScheduled ?? 0,
      status?.numberAvailable ?? 0,
      formatLabels(ds.spec?.template?.spec?.nodeSelector),
      translateTimestampSince(ds.metadata?.creationTimestamp, now),
      names,
      images,
      formatLabelSelector(ds.spec?.selector),
    ];
  },
});
