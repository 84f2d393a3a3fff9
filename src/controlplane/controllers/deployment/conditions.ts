// Deployment conditions (deployment/util/deployment_util.go): found by type, set only when their
// status or reason changes (keeping lastTransitionTime while the status holds), removed by type.
import type { DeploymentStatus } from '../../../api/apps/v1/deployment.js';
import type { AppsCondition } from '../../../api/apps/v1/group.js';

export const conditionReasons = {
  newRSAvailable: 'NewReplicaSetAvailable',
  newRSCreated: 'NewReplicaSetCreated',
  foundNewRS: 'FoundNewReplicaSet',
  rsUpdated: 'ReplicaSetUpdated',
  timedOut: 'ProgressDeadlineExceeded',
  paused: 'DeploymentPaused',
  resumed: 'DeploymentResumed',
} as const;

/** NewDeploymentCondition: both times are now. */
export function newCondition(
  type: string,
  c: { status: string; reason: string; message: string; now: string },
): AppsCondition {
  return {
    type,
    status: c.status,
    lastUpdateTime: c.now,
    lastTransitionTime: c.now,
    reason: c.reason,
    message: c.message,
  };
}

export const getCondition = (status: DeploymentStatus | undefined, type: string): AppsCondition | undefined =>
  status?.conditions?.find((c) => c.type === type);

/** SetDeploymentCondition: a condition of the same status and reason is left as it is. */
export function setCondition(status: DeploymentStatus, c: AppsCondition): void {
  const current = getCondition(status, c.type);
  if (current !== undefined && current.status === c.status && current.reason === c.reason) return;
  const next =
    current !== undefined && current.status === c.status && current.lastTransitionTime !== undefined
      ? { ...c, lastTransitionTime: current.lastTransitionTime }
      : c;
  status.conditions = [...(status.conditions ?? []).filter((x) => x.type !== c.type), next];
}

export function removeCondition(status: DeploymentStatus, type: string): void {
  if (status.conditions === undefined) return;
  status.conditions = status.conditions.filter((c) => c.type !== type);
}

/** HasProgressDeadline: progressDeadlineSeconds set and not math.MaxInt32. */
export const hasProgressDeadline = (deadline: number | undefined): boolean =>
  deadline !== undefined && deadline !== 2147483647;
