// The counts a DaemonSet reports (daemon_controller.go's updateDaemonSetStatus): nodes that should
// run it, nodes that run it (rightly or not), ready and available daemon pods, and those of the
// current template.
import type { DaemonSet, DaemonSetStatus } from '../../../api/apps/v1/daemon-set.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { isPodReady, podAvailability } from '../simulation/controller-ref.js';
import { revisionLabel, templateHash } from './daemon-pods.js';

export function daemonSetStatus(
  ds: DaemonSet,
  placement: { desired: ReadonlySet<string>; podsByNode: ReadonlyMap<string, readonly Pod[]> },
  now: number,
): DaemonSetStatus {
  let current = 0;
  let misscheduled = 0;
  let ready = 0;
  let available = 0;
  let updated = 0;
  const hash = templateHash(ds);
  for (const [node, pods] of placement.podsByNode) {
    const pod = pods.find((p) => p.metadata?.deletionTimestamp === undefined);
    if (pod === undefined) continue;
    if (!placement.desired.has(node)) {
      misscheduled++;
      continue;
    }
    current++;
    if (isPodReady(pod)) ready++;
    if (podAvailability(pod, ds.spec?.minReadySeconds ?? 0, now).available) available++;
    if (pod.metadata?.labels?.[revisionLabel] === hash) updated++;
  }
  const desired = placement.desired.size;
  return {
    ...ds.status,
    observedGeneration: ds.metadata?.generation ?? 0,
    desiredNumberScheduled: desired,
    currentNumberScheduled: current,
    numberMisscheduled: misscheduled,
    numberReady: ready,
    numberAvailable: available,
    numberUnavailable: Math.max(0, desired - available),
    updatedNumberScheduled: updated,
  };
}
