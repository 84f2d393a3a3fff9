// markFailedAndDeletePodWithCondition (pkg/controller/podgc/gc_controller.go): a pod the PodGC
// collects is first moved to the Failed phase (with the condition given, such as DisruptionTarget
// for an orphan), since no kubelet may ever do it, and only then force-deleted (grace period 0).
// kube patches the status, which never conflicts; a whole-status update here is retried on a fresh
// read instead. When the status cannot be written the pod is not deleted, as in kube.
import type { PodCondition, PodStatus } from '../../../api/core/v1/pod-status.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import { copyOf, type APIClient } from '../simulation/api-client.js';

/** How many times a status update that met a newer pod is tried again. */
const conflictRetries = 3;

export interface MarkFailedAndDelete {
  readonly client: APIClient;
  readonly pod: Pod;
  /** The server's clock, RFC 3339: the new condition's lastTransitionTime. */
  readonly now: string;
  readonly condition?: Omit<PodCondition, 'lastTransitionTime'> | undefined;
}

const isTerminal = (pod: Pod): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

/**
 * podutil.UpdatePodCondition: the condition replaces one of its type in place (keeping its
 * lastTransitionTime while its status is unchanged), or is appended.
 */
export function withPodCondition(
  status: PodStatus,
  at: { condition: Omit<PodCondition, 'lastTransitionTime'>; now: string },
): PodCondition[] {
  const conditions = status.conditions ?? [];
  const i = conditions.findIndex((c) => c.type === at.condition.type);
  const before = i < 0 ? undefined : conditions[i];
  const lastTransitionTime =
    before?.status === at.condition.status && before.lastTransitionTime !== undefined
      ? before.lastTransitionTime
      : at.now;
  const next: PodCondition = { ...at.condition, lastTransitionTime };
  return i < 0 ? [...conditions, next] : conditions.map((c, j) => (j === i ? next : c));
}

/** The pod as storage holds it now, or undefined when it is gone or another pod took its name. */
async function reread(client: APIClient, pod: Pod): Promise<Pod | undefined> {
  const target = { namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '' };
  try {
    const fresh = await client.get<Pod>('/v1/pods', target);
    return fresh.metadata?.uid === pod.metadata?.uid ? fresh : undefined;
  } catch (err) {
    if (reasonForError(err) === 'NotFound') return undefined;
    throw err;
  }
}

/** Writes phase Failed (and the condition); false when the pod is gone. */
async function markFailed(args: MarkFailedAndDelete): Promise<boolean> {
  let pod: Pod | undefined = args.pod;
  for (let attempt = 0; pod !== undefined && !isTerminal(pod); attempt++) {
    const updated = copyOf(pod);
    const status = (updated.status ??= {});
    status.phase = 'Failed';
    if (args.condition !== undefined)
      status.conditions = withPodCondition(status, { condition: args.condition, now: args.now });
    try {
      await args.client.update('/v1/pods/status', updated);
      return true;
    } catch (err) {
      const reason = reasonForError(err);
      if (reason === 'NotFound') return false;
      if (reason !== 'Conflict' || attempt >= conflictRetries) throw err;
    }
    pod = await reread(args.client, pod);
  }
  return pod !== undefined;
}

export async function markFailedAndDeletePod(args: MarkFailedAndDelete): Promise<void> {
  if (!(await markFailed(args))) return;
  const { pod, client } = args;
  const uid = pod.metadata?.uid;
  try {
    await client.delete(
      '/v1/pods',
      { namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '' },
      { gracePeriodSeconds: 0, ...(uid === undefined ? {} : { preconditions: { uid } }) },
    );
  } catch (err) {
    const reason = reasonForError(err);
    if (reason !== 'NotFound' && reason !== 'Conflict') throw err;
  }
}
