// Which run of a container a log request reads, as the kubelet picks it from the pod's status
// (kubelet_pods.go validateContainerLogStatus), with its refusals as the 400s the apiserver relays.
// A container the status does not list yet is waiting as the kubelet first reports it
// (convertToAPIContainerStatuses): PodInitializing for an app container of a pod with init
// containers, ContainerCreating otherwise. A terminated state without its own containerID (the
// simulated kubelet writes completed init containers so) is read as the run the status names.
import type { Pod } from '../../../api/core/v1/pod.js';
import type { ContainerStatus } from '../../../api/core/v1/pod-status.js';
import { newBadRequest } from '../../../machinery/errors/index.js';
import { goQuote } from '../../../machinery/validation/index.js';

/** One run of a container: when it started, and whether it still runs. */
export interface LogInstance {
  readonly containerID: string;
  /** Epoch ms; undefined when the status carries no start time. */
  readonly startedAt: number | undefined;
  readonly running: boolean;
}

/** An RFC 3339 time as epoch ms; undefined when absent or unreadable. */
export const epochMs = (t: string | undefined): number | undefined => {
  const ms = t === undefined ? Number.NaN : Date.parse(t);
  return Number.isNaN(ms) ? undefined : ms;
};

/** The container's status (app, then init, then ephemeral containers), as the kubelet reads it. */
export function containerStatusOf(pod: Pod, container: string): ContainerStatus | undefined {
  const s = pod.status;
  const find = (list: readonly ContainerStatus[] | undefined): ContainerStatus | undefined =>
    list?.find((c) => c.name === container);
  return find(s?.containerStatuses) ?? find(s?.initContainerStatuses) ?? find(s?.ephemeralContainerStatuses);
}

/** The status a kubelet reports for a container it has not started yet. */
function notYetStarted(pod: Pod, container: string): ContainerStatus | undefined {
  const spec = pod.spec;
  const hasInit = (spec?.initContainers?.length ?? 0) > 0;
  const isApp = spec?.containers.some((c) => c.name === container) === true;
  const known =
    isApp ||
    spec?.initContainers?.some((c) => c.name === container) === true ||
    spec?.ephemeralContainers?.some((c) => c.name === container) === true;
  if (!known) return undefined;
  const reason = isApp && hasInit ? 'PodInitializing' : 'ContainerCreating';
  return {
    name: container,
    state: { waiting: { reason } },
    ready: false,
    restartCount: 0,
    image: '',
    imageID: '',
  };
}

const waitingText: Readonly<Record<string, string>> = {
  ErrImagePull: "image can't be pulled",
  ImagePullBackOff: 'trying and failing to pull image',
};

/** The run `previous` asks for, or the 400 the kubelet answers when there is none to read. */
export function logInstance(pod: Pod, container: string, previous: boolean): LogInstance {
  const podName = pod.metadata?.name ?? '';
  const quoted = `container ${goQuote(container)} in pod ${goQuote(podName)}`;
  const status = containerStatusOf(pod, container) ?? notYetStarted(pod, container);
  if (status === undefined) throw newBadRequest(`${quoted} is not available`);
  const last = status.lastState?.terminated;
  const lastRun = (): LogInstance => {
    if (last === undefined || (last.containerID ?? '') === '') throw newBadRequest(`${quoted} is terminated`);
    return { containerID: last.containerID ?? '', startedAt: epochMs(last.startedAt), running: false };
  };
  const { waiting, running, terminated } = status.state ?? {};
  if (previous) {
    if (last === undefined || (last.containerID ?? '') === '')
      throw newBadRequest(`previous terminated ${quoted} not found`);
    return lastRun();
  }
  if (running !== undefined)
    return { containerID: status.containerID ?? '', startedAt: epochMs(running.startedAt), running: true };
  if (terminated !== undefined) {
    const id = terminated.containerID ?? status.containerID ?? '';
    if (id === '') return lastRun();
    return { containerID: id, startedAt: epochMs(terminated.startedAt), running: false };
  }
  if (last !== undefined) return lastRun();
  if (waiting !== undefined) {
    const reason = waiting.reason ?? '';
    throw newBadRequest(`${quoted} is waiting to start: ${waitingText[reason] ?? reason}`);
  }
  throw newBadRequest(`${quoted} is waiting to start - no logs yet`);
}
