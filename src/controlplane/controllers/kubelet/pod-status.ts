// The statuses a simulated kubelet reports for a pod (kubelet's generateAPIPodStatus, as kwok's
// default stages fake it): Running and Ready with every container started, or terminated with the
// exit code a test asked for. As kubelet's convertToAPIContainerStatuses, the statuses of containers
// and of ephemeral containers are sorted by name; those of init containers keep the spec's order.
import { createHash } from 'node:crypto';
import type { ContainerStatus, PodCondition, PodStatus } from '../../../api/core/v1/pod-status.js';
import type { Container } from '../../../api/core/v1/container.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { allocatedFields } from './pod-resize.js';

/** The exit code a run-to-completion pod's containers end with (restartPolicy Never or OnFailure). */
export const exitCodeAnnotation = 'capstan.dev/exit-code';
/** How long such a pod runs before its containers exit, in seconds (default 1). */
export const runSecondsAnnotation = 'capstan.dev/run-seconds';

/**
 * How long a deleted pod's containers take to exit at their SIGTERM, in seconds; without it they
 * exit at once (or after the server's --simulate-pod-stop-seconds), as most images do; when it is
 * the grace period or longer they are killed when the grace period is over, as a process that
 * ignores SIGTERM is.
 */
export const stopSecondsAnnotation = 'capstan.dev/stop-seconds';

/** The containers of a pod with this annotation never start (waiting, ContainerCreating). */
export const stayPendingAnnotation = 'capstan.dev/stay-pending';

/** What the containers printed, as pods/log serves it (defined beside it, in the registry). */
export { containerLogsAnnotationPrefix, logsAnnotation } from '../../../registry/core/pod/simulated-log.js';

export function containerID(pod: Pod, container: string, restarts: number): string {
  const hash = createHash('sha256').update(`${pod.metadata?.uid ?? ''}/${container}/${String(restarts)}`);
  return `containerd://${hash.digest('hex')}`;
}

const imageID = (image: string): string =>
  `${image.includes('/') ? image : `docker.io/library/${image}`}@sha256:${createHash('sha256').update(image).digest('hex')}`;

/** A condition the kubelet writes, keeping its lastTransitionTime while its status holds. */
export function condition(
  type: string,
  status: string,
  at: { now: string; old: PodStatus | undefined; reason?: string },
): PodCondition {
  const { now, old, reason } = at;
  const before = old?.conditions?.find((c) => c.type === type);
  const since =
    before?.status === status && before.lastTransitionTime !== undefined ? before.lastTransitionTime : now;
  return { type, status, lastTransitionTime: since, ...(reason === undefined ? {} : { reason }) };
}

// The conditions the simulated kubelet writes (kubelet's own and PodScheduled, which it sets on
// the scheduler's behalf); others (readiness gates' conditions, DisruptionTarget) it keeps, as
// kubelet's status manager keeps the conditions it does not own.
const kubeletConditions = new Set([
  'PodReadyToStartContainers',
  'Initialized',
  'Ready',
  'ContainersReady',
  'PodScheduled',
]);

export const othersOf = (old: PodStatus | undefined): PodCondition[] =>
  (old?.conditions ?? []).filter((c) => !kubeletConditions.has(c.type));

export interface Placement {
  readonly hostIP: string;
  readonly podIP: string;
}

/** The pod started: every container running and ready. */
export function runningStatus(pod: Pod, at: Placement, now: string): PodStatus {
  const old = pod.status;
  const startTime = old?.startTime ?? now;
  const prior = new Map((old?.containerStatuses ?? []).map((c) => [c.name, c]));
  const containerStatuses: ContainerStatus[] = byName(pod.spec?.containers ?? []).map((c) => {
    const restarts = prior.get(c.name)?.restartCount ?? 0;
    const lastState = prior.get(c.name)?.lastState;
    return {
      name: c.name,
      ...(lastState === undefined ? {} : { lastState }),
      state: { running: { startedAt: now } },
      ready: true,
      restartCount: restarts,
      image: c.image ?? '',
      imageID: imageID(c.image ?? ''),
      containerID: containerID(pod, c.name, restarts),
      started: true,
      ...allocation(c, prior.get(c.name)),
    };
  });
  const priorInit = new Map((old?.initContainerStatuses ?? []).map((c) => [c.name, c]));
  // An init container with restartPolicy Always is a sidecar: it keeps running beside the others.
  const initContainerStatuses: ContainerStatus[] = (pod.spec?.initContainers ?? []).map((c) => {
    const sidecar = c.restartPolicy === 'Always';
    const running = priorInit.get(c.name)?.state?.running ?? { startedAt: now };
    return {
      name: c.name,
      state: sidecar
        ? { running }
        : { terminated: { exitCode: 0, reason: 'Completed', startedAt: startTime, finishedAt: startTime } },
      ready: true,
      restartCount: 0,
      image: c.image ?? '',
      imageID: imageID(c.image ?? ''),
      containerID: containerID(pod, c.name, 0),
      started: sidecar,
      ...(sidecar ? allocation(c, priorInit.get(c.name)) : {}),
    };
  });
  return {
    ...old,
    phase: 'Running',
    conditions: [
      condition('PodReadyToStartContainers', 'True', { now, old }),
      condition('Initialized', 'True', { now, old }),
      condition('Ready', 'True', { now, old }),
      condition('ContainersReady', 'True', { now, old }),
      condition('PodScheduled', 'True', { now, old }),
      ...othersOf(old),
    ],
    hostIP: at.hostIP,
    hostIPs: [{ ip: at.hostIP }],
    podIP: at.podIP,
    podIPs: [{ ip: at.podIP }],
    startTime,
    containerStatuses,
    ...(initContainerStatuses.length === 0 ? {} : { initContainerStatuses }),
    ...ephemeralStatuses(pod, now),
  };
}

/**
 * The resources the kubelet allocated to a container (InPlacePodVerticalScaling, on in kube 1.33):
 * what it allocated before, kept across restarts until a resize changes it, else what the spec asks.
 */
function allocation(
  c: Container,
  prior: ContainerStatus | undefined,
): Pick<ContainerStatus, 'allocatedResources' | 'resources'> {
  if (prior?.resources === undefined) return allocatedFields(c.resources);
  return {
    ...(prior.allocatedResources === undefined ? {} : { allocatedResources: prior.allocatedResources }),
    resources: prior.resources,
  };
}

/** Containers sorted by name, as kubelet sorts their statuses (Go's string order: names are ASCII). */
const byName = <T extends { readonly name: string }>(containers: readonly T[]): T[] =>
  [...containers].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/**
 * The ephemeral containers' statuses (none when the pod has none): each one the kubelet has seen
 * keeps its status, each new one is started. Running, never ready: kubelet's probes and readiness
 * leave ephemeral containers out.
 */
function ephemeralStatuses(pod: Pod, now: string): { ephemeralContainerStatuses?: ContainerStatus[] } {
  const spec = pod.spec?.ephemeralContainers ?? [];
  if (spec.length === 0) return {};
  const prior = new Map((pod.status?.ephemeralContainerStatuses ?? []).map((c) => [c.name, c]));
  const statuses = byName(spec).map(
    (c): ContainerStatus =>
      prior.get(c.name) ?? {
        name: c.name,
        state: { running: { startedAt: now } },
        ready: false,
        restartCount: 0,
        image: c.image ?? '',
        imageID: imageID(c.image ?? ''),
        containerID: containerID(pod, c.name, 0),
      },
  );
  return { ephemeralContainerStatuses: statuses };
}

/**
 * The pod's status with the ephemeral containers added since the kubelet last wrote it started;
 * undefined when each one has its status already (kubectl debug waits for that status).
 */
export function withEphemeralStarted(pod: Pod, now: string): PodStatus | undefined {
  const known = new Set((pod.status?.ephemeralContainerStatuses ?? []).map((c) => c.name));
  if ((pod.spec?.ephemeralContainers ?? []).every((c) => known.has(c.name))) return undefined;
  return { ...pod.status, ...ephemeralStatuses(pod, now) };
}

/** Every container exited with `exitCode`: Succeeded on 0, Failed otherwise. */
export function terminatedStatus(pod: Pod, exitCode: number, now: string): PodStatus {
  const old = pod.status;
  const exited = (code: number) => (c: ContainerStatus) => ({
    ...c,
    state: {
      terminated: {
        exitCode: code,
        reason: code === 0 ? 'Completed' : 'Error',
        startedAt: c.state?.running?.startedAt ?? now,
        finishedAt: now,
        ...(c.containerID === undefined ? {} : { containerID: c.containerID }),
      },
    },
    ready: false,
    started: false,
  });
  const containerStatuses = (old?.containerStatuses ?? []).map(exited(exitCode));
  // Sidecars still running are stopped once the containers are done; they exit cleanly.
  const initContainerStatuses = old?.initContainerStatuses?.map((c) =>
    c.state?.running === undefined ? c : exited(0)(c),
  );
  // kubelet's generateContainersReadyConditionForTerminalPhase: PodCompleted or PodFailed.
  const reason = exitCode === 0 ? 'PodCompleted' : 'PodFailed';
  return {
    ...old,
    phase: exitCode === 0 ? 'Succeeded' : 'Failed',
    conditions: [
      condition('PodReadyToStartContainers', 'False', { now, old }),
      condition('Initialized', 'True', { now, old }),
      condition('Ready', 'False', { now, old, reason }),
      condition('ContainersReady', 'False', { now, old, reason }),
      condition('PodScheduled', 'True', { now, old }),
      ...othersOf(old),
    ],
    containerStatuses,
    ...(initContainerStatuses === undefined ? {} : { initContainerStatuses }),
  };
}

/**
 * restartPolicy OnFailure after a non-zero exit: the containers wait in CrashLoopBackOff, not
 * ready, their restartCount one up, until crashLoopBackOffMs has passed.
 */
export function restartedStatus(pod: Pod, exitCode: number, now: string): PodStatus {
  const old = pod.status;
  const names = (pod.spec?.containers ?? []).map((c) => c.name).join(' ');
  const notReady = `containers with unready status: [${names}]`;
  const others = (old?.conditions ?? []).filter((c) => c.type !== 'Ready' && c.type !== 'ContainersReady');
  return {
    ...old,
    conditions: [
      ...others,
      { ...condition('Ready', 'False', { now, old, reason: 'ContainersNotReady' }), message: notReady },
      {
        ...condition('ContainersReady', 'False', { now, old, reason: 'ContainersNotReady' }),
        message: notReady,
      },
    ],
    containerStatuses: (old?.containerStatuses ?? []).map((c) => ({
      ...c,
      lastState: {
        terminated: {
          exitCode,
          reason: 'Error',
          startedAt: c.state?.running?.startedAt ?? now,
          finishedAt: now,
          ...(c.containerID === undefined ? {} : { containerID: c.containerID }),
        },
      },
      state: {
        waiting: {
          reason: 'CrashLoopBackOff',
          message: `back-off ${String(crashLoopBackOffMs(c.restartCount + 1) / 1000)}s restarting failed container=${c.name} pod=${pod.metadata?.name ?? ''}_${pod.metadata?.namespace ?? ''}(${pod.metadata?.uid ?? ''})`,
        },
      },
      ready: false,
      started: false,
      restartCount: c.restartCount + 1,
    })),
  };
}

/** kubelet's restart backoff: 10s, doubled per restart, at most 5 minutes. */
export const crashLoopBackOffMs = (restarts: number): number =>
  Math.min(10_000 * 2 ** Math.max(0, restarts - 1), 300_000);

/** When a container waiting in CrashLoopBackOff starts again (epoch ms), if one is waiting. */
export function restartDue(pod: Pod): number | undefined {
  const waiting = (pod.status?.containerStatuses ?? []).find(
    (c) => c.state?.waiting?.reason === 'CrashLoopBackOff',
  );
  if (waiting === undefined) return undefined;
  const finished = Date.parse(waiting.lastState?.terminated?.finishedAt ?? '') || 0;
  return finished + crashLoopBackOffMs(waiting.restartCount);
}

/**
 * When a terminating pod's containers are gone (ms since the epoch): capstan.dev/stop-seconds
 * (else `defaultStopSeconds`, the server's --simulate-pod-stop-seconds, else 0) after the delete,
 * and at the latest at the end of its grace period; NaN without a deletionTimestamp.
 */
export function containersGoneAt(pod: Pod, defaultStopSeconds = 0): number {
  const deadline = Date.parse(pod.metadata?.deletionTimestamp ?? '');
  const stop = stopSecondsOf(pod, defaultStopSeconds);
  const requested = deadline - (pod.metadata?.deletionGracePeriodSeconds ?? 0) * 1000;
  return Math.min(deadline, requested + stop * 1000);
}

/** How long the pod's containers take to exit at SIGTERM: capstan.dev/stop-seconds, else the default. */
export function stopSecondsOf(pod: Pod, defaultStopSeconds = 0): number {
  const text = pod.metadata?.annotations?.[stopSecondsAnnotation];
  return text === undefined || !/^\d+$/.test(text) ? defaultStopSeconds : Number(text);
}
