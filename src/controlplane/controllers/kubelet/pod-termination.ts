// The final status a simulated kubelet writes for a pod it has finished terminating (kube 1.33:
// kubelet.go SyncTerminatedPod generates the status with podIsTerminal, then status_manager.go
// TerminatePod fills in what the runtime could not say). Only once the API holds this terminal
// phase does the status manager make its final delete (canBeDeleted).
// - A running container ends with the signal that stopped it: 143 (128+SIGTERM) when it exited at
//   SIGTERM, 137 (128+SIGKILL) when it was still running at the end of the grace period; reason
//   Error, as the runtime reports any non-zero exit.
// - Once the pod has initialized, a container that is neither running nor terminated is
//   ContainerStatusUnknown, 137 (TerminatePod: a missing status is never taken for a success).
// - The phase is Succeeded when every container exited 0, else Failed, whatever the restartPolicy
//   (getPhase with podIsTerminal); a pod still Pending is Failed.
import type { ContainerStatus, PodStatus } from '../../../api/core/v1/pod-status.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { condition, othersOf, stopSecondsOf } from './pod-status.js';

/** 128 + SIGTERM: the process ended at the signal the kubelet sent first. */
export const sigtermExitCode = 143;
/** 128 + SIGKILL: the process outlived the grace period and was killed. */
export const sigkillExitCode = 137;

/**
 * The exit code of a deleted pod's running containers: killed (137) when they take the grace
 * period or longer to stop (capstan.dev/stop-seconds, else `defaultStopSeconds`), else 143.
 */
export function stopExitCode(pod: Pod, defaultStopSeconds = 0): number {
  const stop = stopSecondsOf(pod, defaultStopSeconds);
  const grace = pod.metadata?.deletionGracePeriodSeconds ?? 0;
  return stop > 0 && stop >= grace ? sigkillExitCode : sigtermExitCode;
}

/** status_manager.go hasPodInitialized: has any container of the pod left its waiting state. */
function hasPodInitialized(pod: Pod): boolean {
  if ((pod.spec?.initContainers ?? []).length === 0) return true;
  const status = pod.status;
  if (
    (status?.containerStatuses ?? []).some(
      (c) => c.lastState?.terminated !== undefined || c.state?.waiting === undefined,
    )
  )
    return true;
  const last = status?.initContainerStatuses?.at(-1);
  return last?.state?.terminated?.exitCode === 0;
}

interface Stop {
  readonly exitCode: number;
  readonly now: string;
  readonly initialized: boolean;
}

function stopped(c: ContainerStatus, at: Stop): ContainerStatus {
  if (c.state?.terminated !== undefined) return { ...c, ready: false };
  const running = c.state?.running;
  if (running === undefined && !at.initialized) return { ...c, ready: false };
  const terminated =
    running === undefined
      ? {
          exitCode: sigkillExitCode,
          reason: 'ContainerStatusUnknown',
          message: 'The container could not be located when the pod was terminated',
        }
      : {
          exitCode: at.exitCode,
          reason: 'Error',
          startedAt: running.startedAt ?? at.now,
          finishedAt: at.now,
          ...(c.containerID === undefined ? {} : { containerID: c.containerID }),
        };
  return {
    ...c,
    state: { terminated },
    ready: false,
    ...(c.started === undefined ? {} : { started: false }),
  };
}

/**
 * The pod's status once its containers are gone: each one that ran stopped with `exitCode`, and a
 * terminal phase. Conditions the kubelet does not own (DisruptionTarget, readiness gates) stay.
 */
export function killedStatus(pod: Pod, at: { exitCode: number; now: string }): PodStatus {
  const old = pod.status;
  const stop: Stop = { ...at, initialized: hasPodInitialized(pod) };
  const containerStatuses = old?.containerStatuses?.map((c) => stopped(c, stop));
  const initContainerStatuses = old?.initContainerStatuses?.map((c) => stopped(c, stop));
  const ephemeralContainerStatuses = old?.ephemeralContainerStatuses?.map((c) => stopped(c, stop));
  const succeeded =
    containerStatuses !== undefined &&
    containerStatuses.length > 0 &&
    containerStatuses.every((c) => c.state?.terminated?.exitCode === 0);
  const phase = succeeded ? 'Succeeded' : 'Failed';
  const reason = succeeded ? 'PodCompleted' : 'PodFailed';
  const now = at.now;
  const initialized = old?.conditions?.find((c) => c.type === 'Initialized')?.status ?? 'True';
  return {
    ...old,
    phase,
    conditions: [
      condition('PodReadyToStartContainers', 'False', { now, old }),
      condition('Initialized', initialized, { now, old }),
      condition('Ready', 'False', { now, old, reason }),
      condition('ContainersReady', 'False', { now, old, reason }),
      condition('PodScheduled', 'True', { now, old }),
      ...othersOf(old),
    ],
    ...(containerStatuses === undefined ? {} : { containerStatuses }),
    ...(initContainerStatuses === undefined ? {} : { initContainerStatuses }),
    ...(ephemeralContainerStatuses === undefined ? {} : { ephemeralContainerStatuses }),
  };
}
