// The times and readiness a pod stage reads and writes: when the pod was bound, when its containers
// started, and a Running status made ready or not ready (keeping when the containers started).
import type { PodStatus } from '../../../api/core/v1/pod-status.js';
import type { Pod } from '../../../api/core/v1/pod.js';

const epoch = (text: string | undefined): number => Date.parse(text ?? '') || 0;

/** When the pod was bound to its node (PodScheduled), else created. */
export function boundAt(pod: Pod): number {
  const scheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'True');
  return epoch(scheduled?.lastTransitionTime ?? pod.metadata?.creationTimestamp);
}

/** When the last of its containers started running. */
export const startedAt = (pod: Pod): number =>
  Math.max(0, ...(pod.status?.containerStatuses ?? []).map((c) => epoch(c.state?.running?.startedAt)));

export const isReady = (pod: Pod): boolean =>
  pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;

/** A Running status with its readiness set; containers already running keep their start time. */
export function withReadiness(status: PodStatus, old: PodStatus | undefined, ready: boolean): PodStatus {
  const prior = new Map((old?.containerStatuses ?? []).map((c) => [c.name, c]));
  const flag = ready ? 'True' : 'False';
  return {
    ...status,
    conditions: (status.conditions ?? []).map((c) =>
      (c.type !== 'Ready' && c.type !== 'ContainersReady') || c.status === flag
        ? c
        : { ...c, status: flag, ...(ready ? {} : { reason: 'ContainersNotReady' }) },
    ),
    containerStatuses: (status.containerStatuses ?? []).map((c) => {
      const running = prior.get(c.name)?.state?.running;
      return { ...c, ready, ...(running === undefined ? {} : { state: { running } }) };
    }),
  };
}
