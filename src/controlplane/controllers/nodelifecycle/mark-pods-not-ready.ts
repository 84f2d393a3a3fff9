// MarkPodsNotReady (pkg/controller/util/node/controller_utils.go): the pods of a node that is not
// Ready get Ready=False, each with a NodeNotReady warning event once its status is written.
import type { Pod } from '../../../api/core/v1/pod.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import type { APIClient } from '../simulation/api-client.js';
import { copyOf } from '../simulation/api-client.js';
import type { EventRecorder } from '../event-recorder.js';
import { objectRef } from '../simulation/pod-control.js';

const podKind = { apiVersion: 'v1', kind: 'Pod' } as const;

export interface MarkPodsNotReadyInput {
  readonly client: APIClient;
  readonly recorder: EventRecorder | undefined;
  readonly pods: readonly Pod[];
  readonly nodeName: string;
  readonly nowText: string;
}

/** Writes every pod's Ready=False; throws the first failure after trying them all. */
export async function markPodsNotReady(input: MarkPodsNotReadyInput): Promise<void> {
  const failures: unknown[] = [];
  for (const pod of input.pods) {
    if (pod.spec?.nodeName !== input.nodeName) continue;
    const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
    if (ready === undefined || ready.status === 'False') continue;
    const updated = copyOf(pod);
    const condition = updated.status?.conditions?.find((c) => c.type === 'Ready');
    if (condition === undefined) continue;
    condition.status = 'False';
    condition.lastTransitionTime = input.nowText;
    try {
      await input.client.update('/v1/pods/status', updated);
    } catch (err) {
      if (reasonForError(err) !== 'NotFound') failures.push(err);
      continue;
    }
    input.recorder?.event(objectRef(pod, podKind), {
      type: 'Warning',
      reason: 'NodeNotReady',
      message: 'Node is not ready',
    });
  }
  if (failures.length > 0) throw failures[0];
}
