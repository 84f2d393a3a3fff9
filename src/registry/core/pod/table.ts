// `kubectl get pods` columns: NAME READY STATUS RESTARTS AGE, wide: IP NODE NOMINATED NODE
// READINESS GATES (printPod in pkg/printers/internalversion/printers.go).
import type { Pod } from '../../../api/core/v1/pod.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

const column = (name: string, description: string, priority = 0): typeof nameColumn => ({
  name,
  type: 'string',
  format: '',
  description,
  priority,
});

/** The STATUS cell: the pod's reason or phase, refined by its containers, Terminating while deleting. */
export function podStatusReason(pod: Pod): string {
  const status = pod.status ?? {};
  let reason = status.reason ?? '';
  if (reason === '') reason = status.phase ?? '';
  for (const c of status.containerStatuses ?? []) {
    const waiting = c.state?.waiting?.reason ?? '';
    const terminated = c.state?.terminated;
    if (waiting !== '') reason = waiting;
    else if (terminated !== undefined) {
      reason =
        terminated.reason ??
        (terminated.signal !== undefined && terminated.signal !== 0
          ? `Signal:${terminated.signal}`
          : `ExitCode:${terminated.exitCode}`);
    }
  }
  if ((pod.metadata?.deletionTimestamp ?? '') !== '')
    reason = status.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  return reason;
}

function readinessGates(pod: Pod): string {
  const gates =
    (pod.spec as { readinessGates?: { conditionType: string }[] } | undefined)?.readinessGates ?? [];
  if (gates.length === 0) return '<none>';
  const ready = gates.filter((g) =>
    (pod.status?.conditions ?? []).some((c) => c.type === g.conditionType && c.status === 'True'),
  ).length;
  return `${ready}/${gates.length}`;
}

export const podTableConvertor: TableConvertor = tableConvertorFor<Pod>({
  columns: [
    nameColumn,
    column('Ready', 'The aggregate readiness state of this pod for accepting traffic.'),
    column('Status', 'The aggregate status of the containers in this pod.'),
    column(
      'Restarts',
      'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
    ),
    ageColumn,
    column('IP', 'IP address assigned to the pod', 1),
    column('Node', 'Name of the node assigned to the pod', 1),
    column('Nominated Node', 'Name of the node nominated by the scheduler', 1),
    column('Readiness Gates', 'Pod Readiness Gates', 1),
  ],
  cells: (pod, now) => {
    const statuses = pod.status?.containerStatuses ?? [];
    const total = pod.spec?.containers.length ?? 0;
    const ready = statuses.filter((c) => c.ready && c.state?.running !== undefined).length;
    const restarts = statuses.reduce((n, c) => n + c.restartCount, 0);
    const none = (s: string | undefined): string => (s === undefined || s === '' ? '<none>' : s);
    return [
      pod.metadata?.name ?? '',
      `${ready}/${total}`,
      podStatusReason(pod),
      String(restarts),
      translateTimestampSince(pod.metadata?.creationTimestamp, now),
      none(pod.status?.podIP),
      none(pod.spec?.nodeName),
      none(pod.status?.nominatedNodeName),
      readinessGates(pod),
    ];
  },
});
