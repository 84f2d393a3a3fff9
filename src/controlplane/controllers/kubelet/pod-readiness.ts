// The times and readiness a pod stage reads and writes: when the pod was bound, when its containers
// started, a Running status made ready or not ready (keeping when the containers started), and the
// pod's readiness gates (kubelet's GeneratePodReadyCondition).
import type { PodStatus } from '../../../api/core/v1/pod-status.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { isPodReady } from '../simulation/controller-ref.js';

const epoch = (text: string | undefined): number => Date.parse(text ?? '') || 0;

/** When the pod was bound to its node (PodScheduled), else created. */
export function boundAt(pod: Pod): number {
  const scheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'True');
  return epoch(scheduled?.lastTransitionTime ?? pod.metadata?.creationTimestamp);
}

/** When the last of its containers started running. */
export const startedAt = (pod: Pod): number =>
  Math.max(0, ...(pod.status?.containerStatuses ?? []).map((c) => epoch(c.state?.running?.startedAt)));

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

/**
 * Why the pod's readiness gates hold it not ready, in kubelet's words: one message per gate whose
 * condition is missing or not True; none when every gate is met.
 */
export function readinessGateMessages(pod: Pod): string[] {
  const conditions = pod.status?.conditions ?? [];
  const messages: string[] = [];
  for (const gate of pod.spec?.readinessGates ?? []) {
    const type = gate.conditionType;
    const c = conditions.find((x) => x.type === type);
    if (c === undefined)
      messages.push(`corresponding condition of pod readiness gate "${type}" does not exist.`);
    else if (c.status !== 'True')
      messages.push(`the status of pod readiness gate "${type}" is not "True", but ${c.status}`);
  }
  return messages;
}

/**
 * Whether the pod's Ready condition is the one its kubelet posts for containers that are `ready`:
 * True only with every readiness gate met, else False, with the gates' messages when they are why.
 */
export function readyAsPosted(pod: Pod, ready: boolean): boolean {
  const gates = readinessGateMessages(pod);
  if (isPodReady(pod) !== (ready && gates.length === 0)) return false;
  if (!ready || gates.length === 0) return true;
  const c = pod.status?.conditions?.find((x) => x.type === 'Ready');
  return c?.reason === 'ReadinessGatesNotReady' && c.message === gates.join(', ');
}

/**
 * The status with Ready False (reason ReadinessGatesNotReady) where its containers are ready but a
 * readiness gate of `pod` is not met; ContainersReady and the containers stay as they are.
 */
export function withReadinessGates(status: PodStatus, at: { pod: Pod; now: string }): PodStatus {
  const messages = readinessGateMessages(at.pod);
  if (messages.length === 0) return status;
  const before = at.pod.status?.conditions?.find((c) => c.type === 'Ready');
  const since =
    before?.status === 'False' && before.lastTransitionTime !== undefined
      ? before.lastTransitionTime
      : at.now;
  return {
    ...status,
    conditions: (status.conditions ?? []).map((c) =>
      c.type !== 'Ready' || c.status !== 'True'
        ? c
        : {
            ...c,
            status: 'False',
            lastTransitionTime: since,
            reason: 'ReadinessGatesNotReady',
            message: messages.join(', '),
          },
    ),
  };
}
