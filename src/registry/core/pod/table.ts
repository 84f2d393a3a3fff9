// `kubectl get pods` columns: NAME READY STATUS RESTARTS AGE, wide: IP NODE NOMINATED NODE
// READINESS GATES, and the Completed row condition of a finished pod (printPod in
// pkg/printers/internalversion/printers.go).
import type { Container } from '../../../api/core/v1/container.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { ContainerState, ContainerStatus } from '../../../api/core/v1/pod-status.js';
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

const isSidecar = (c: Container | undefined): boolean => c?.restartPolicy === 'Always';

const terminatedReason = (t: NonNullable<ContainerState['terminated']>, prefix = ''): string =>
  t.reason !== undefined && t.reason !== ''
    ? prefix + t.reason
    : t.signal !== undefined && t.signal !== 0
      ? `${prefix}Signal:${t.signal}`
      : `${prefix}ExitCode:${t.exitCode}`;

/** The latest of two RFC 3339 times, either possibly missing. */
const later = (a: string | undefined, b: string | undefined): string | undefined =>
  a === undefined || (b !== undefined && Date.parse(b) > Date.parse(a)) ? b : a;

interface PodSummary {
  readonly reason: string;
  readonly ready: number;
  readonly total: number;
  readonly restarts: number;
  /** When the last restart counted ended (the latest lastState.terminated.finishedAt). */
  readonly lastRestart: string | undefined;
}

/**
 * printPod's STATUS, READY and RESTARTS: the pod's reason or phase, SchedulingGated while gates hold
 * it, an init container's progress or failure while initializing, else the containers' waiting or
 * terminated reasons (Completed read as Running or NotReady while one still runs); Terminating while
 * deleting, Unknown for a pod of a lost node. Sidecars (init containers restarted Always) count
 * among the containers once started.
 */
export function summarizePod(pod: Pod): PodSummary {
  const status = pod.status ?? {};
  const spec = pod.spec;
  let reason = (status.reason ?? '') !== '' ? (status.reason ?? '') : (status.phase ?? '');
  for (const c of status.conditions ?? [])
    if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  const initSpecs = new Map<string, Container>();
  let total = spec?.containers.length ?? 0;
  for (const c of spec?.initContainers ?? []) {
    initSpecs.set(c.name, c);
    if (isSidecar(c)) total++;
  }
  let ready = 0;
  let restarts = 0;
  let lastRestart: string | undefined;
  let sidecarRestarts = 0;
  let lastSidecarRestart: string | undefined;
  let initializing = false;
  const inits = status.initContainerStatuses ?? [];
  for (let i = 0; i < inits.length; i++) {
    const c = inits[i] as ContainerStatus;
    restarts += c.restartCount;
    const finished = c.lastState?.terminated?.finishedAt;
    lastRestart = later(lastRestart, finished);
    const sidecar = isSidecar(initSpecs.get(c.name));
    if (sidecar) {
      sidecarRestarts += c.restartCount;
      lastSidecarRestart = later(lastSidecarRestart, finished);
    }
    const terminated = c.state?.terminated;
    const waiting = c.state?.waiting?.reason ?? '';
    if (terminated !== undefined && terminated.exitCode === 0) continue;
    if (sidecar && c.started === true) {
      if (c.ready) ready++;
      continue;
    }
    if (terminated !== undefined) reason = terminatedReason(terminated, 'Init:');
    else if (waiting !== '' && waiting !== 'PodInitializing') reason = `Init:${waiting}`;
    else reason = `Init:${i}/${spec?.initContainers?.length ?? 0}`;
    initializing = true;
    break;
  }
  const initialized = (status.conditions ?? []).some((c) => c.type === 'Initialized' && c.status === 'True');
  if (!initializing || initialized) {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let running = false;
    const statuses = status.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i] as ContainerStatus;
      restarts += c.restartCount;
      lastRestart = later(lastRestart, c.lastState?.terminated?.finishedAt);
      const waiting = c.state?.waiting?.reason ?? '';
      const terminated = c.state?.terminated;
      if (waiting !== '') reason = waiting;
      else if (terminated !== undefined) reason = terminatedReason(terminated);
      else if (c.ready && c.state?.running !== undefined) {
        running = true;
        ready++;
      }
    }
    if (reason === 'Completed' && running) {
      const podReady = (status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
      reason = podReady ? 'Running' : 'NotReady';
    }
  }
  const deleting = (pod.metadata?.deletionTimestamp ?? '') !== '';
  if (deleting && status.reason === 'NodeLost') reason = 'Unknown';
  else if (deleting && status.phase !== 'Succeeded' && status.phase !== 'Failed') reason = 'Terminating';
  return { reason, ready, total, restarts, lastRestart };
}

/** The STATUS cell. */
export const podStatusReason = (pod: Pod): string => summarizePod(pod).reason;

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
    const { reason, ready, total, restarts, lastRestart } = summarizePod(pod);
    const none = (v: string | undefined): string => (v === undefined || v === '' ? '<none>' : v);
    const restartsCell =
      restarts !== 0 && lastRestart !== undefined
        ? `${restarts} (${translateTimestampSince(lastRestart, now)} ago)`
        : String(restarts);
    return [
      pod.metadata?.name ?? '',
      `${ready}/${total}`,
      reason,
      restartsCell,
      translateTimestampSince(pod.metadata?.creationTimestamp, now),
      // kube prints podIPs[0], which its decoding keeps equal to podIP.
      none(pod.status?.podIPs?.[0]?.ip ?? pod.status?.podIP),
      none(pod.spec?.nodeName),
      none(pod.status?.nominatedNodeName),
      readinessGates(pod),
    ];
  },
  conditions: (pod) => {
    const phase = pod.status?.phase;
    if (phase === 'Succeeded')
      return [
        {
          type: 'Completed',
          status: 'True',
          reason: 'Succeeded',
          message: 'The pod has completed successfully.',
        },
      ];
    if (phase === 'Failed')
      return [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];
    return undefined;
  },
});
