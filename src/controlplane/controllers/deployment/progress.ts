// The rollout's conditions (pkg/controller/deployment/progress.go syncRolloutStatus and
// getReplicaFailures, sync.go checkPausedConditions): Progressing tells `kubectl rollout status`
// how the rollout goes, Unknown while paused, False with ProgressDeadlineExceeded once a rollout
// has made no progress for progressDeadlineSeconds; ReplicaFailure carries a ReplicaSet's failure
// to create or delete pods.
import type { Deployment, DeploymentStatus } from '../../../api/apps/v1/deployment.js';
import type { AppsCondition } from '../../../api/apps/v1/group.js';
import type { ReplicaSet } from '../../../api/apps/v1/replica-set.js';
import {
  conditionReasons as reasons,
  getCondition,
  hasProgressDeadline,
  newCondition,
  removeCondition,
  setCondition,
} from './conditions.js';
import { calculateStatus, type StatusInput } from './deployment-status.js';

/** DeploymentComplete: every replica updated and available, in the generation asked for. */
function complete(d: Deployment, s: DeploymentStatus): boolean {
  const replicas = d.spec?.replicas ?? 1;
  return (
    s.updatedReplicas === replicas &&
    s.replicas === replicas &&
    s.availableReplicas === replicas &&
    (s.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0)
  );
}

/** DeploymentProgressing: more updated, ready or available replicas, or fewer old ones. */
function progressing(d: Deployment, s: DeploymentStatus): boolean {
  const old = d.status ?? {};
  const oldReplicas = (x: DeploymentStatus): number => (x.replicas ?? 0) - (x.updatedReplicas ?? 0);
  return (
    (s.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    oldReplicas(s) < oldReplicas(old) ||
    (s.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (s.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/**
 * DeploymentTimedOut: no progress since the Progressing condition's lastUpdateTime for longer than
 * progressDeadlineSeconds (a completed rollout never times out; one that did stays timed out).
 */
function timedOut(d: Deployment, s: DeploymentStatus, nowMs: number): boolean {
  const c = getCondition(s, 'Progressing');
  if (c === undefined || c.reason === reasons.newRSAvailable) return false;
  if (c.reason === reasons.timedOut) return true;
  const from = Date.parse(c.lastUpdateTime ?? '');
  return !Number.isNaN(from) && from + (d.spec?.progressDeadlineSeconds ?? 0) * 1000 < nowMs;
}

/**
 * requeueStuckDeployment: how long until the rollout written as `status` should be looked at again
 * for its deadline (a second past it, as kube), or undefined when it need not be.
 */
export function progressRecheckMs(
  d: Deployment,
  status: DeploymentStatus,
  nowMs: number,
): number | undefined {
  const current = getCondition(d.status, 'Progressing');
  if (!hasProgressDeadline(d.spec?.progressDeadlineSeconds) || current === undefined) return undefined;
  if (complete(d, status) || current.reason === reasons.timedOut) return undefined;
  const from = Date.parse(current.lastUpdateTime ?? '');
  if (Number.isNaN(from)) return undefined;
  const after = from + (d.spec?.progressDeadlineSeconds ?? 0) * 1000 - nowMs;
  return after < 1000 ? 1000 : after + 1000;
}

/** ReplicaSetToDeploymentCondition: both times are the ReplicaSet condition's transition. */
const fromReplicaSet = (c: AppsCondition): AppsCondition => ({
  type: c.type,
  status: c.status,
  ...(c.lastTransitionTime === undefined
    ? {}
    : { lastUpdateTime: c.lastTransitionTime, lastTransitionTime: c.lastTransitionTime }),
  ...(c.reason === undefined ? {} : { reason: c.reason }),
  ...(c.message === undefined ? {} : { message: c.message }),
});

/** getReplicaFailures: the new ReplicaSet's failure first, else the first one of any. */
export function replicaFailure(
  all: readonly ReplicaSet[],
  newRS: ReplicaSet | undefined,
): AppsCondition | undefined {
  const failureOf = (rs: ReplicaSet | undefined): AppsCondition | undefined =>
    rs?.status?.conditions?.find((c) => c.type === 'ReplicaFailure');
  const found = failureOf(newRS) ?? all.map(failureOf).find((c) => c !== undefined);
  return found === undefined ? undefined : fromReplicaSet(found);
}

/** syncRolloutStatus: the status with the Progressing and ReplicaFailure conditions of the rollout. */
export function rolloutStatus(i: StatusInput): DeploymentStatus {
  const { d, newRS, now } = i;
  const status = calculateStatus(i);
  const deadline = hasProgressDeadline(d.spec?.progressDeadlineSeconds);
  if (!deadline) removeCondition(status, 'Progressing');
  const current = getCondition(d.status, 'Progressing');
  const done = status.replicas === status.updatedReplicas && current?.reason === reasons.newRSAvailable;
  const subject =
    newRS === undefined
      ? `Deployment "${d.metadata?.name ?? ''}"`
      : `ReplicaSet "${newRS.metadata?.name ?? ''}"`;
  if (deadline && !done) {
    if (complete(d, status))
      setCondition(
        status,
        newCondition('Progressing', {
          status: 'True',
          reason: reasons.newRSAvailable,
          message: `${subject} has successfully progressed.`,
          now,
        }),
      );
    else if (progressing(d, status)) {
      // Progress moves lastUpdateTime even when the reason stays.
      const next = newCondition('Progressing', {
        status: 'True',
        reason: reasons.rsUpdated,
        message: `${subject} is progressing.`,
        now,
      });
      if (current?.status === 'True' && current.lastTransitionTime !== undefined)
        next.lastTransitionTime = current.lastTransitionTime;
      removeCondition(status, 'Progressing');
      setCondition(status, next);
    } else if (timedOut(d, status, Date.parse(now)))
      setCondition(
        status,
        newCondition('Progressing', {
          status: 'False',
          reason: reasons.timedOut,
          message: `${subject} has timed out progressing.`,
          now,
        }),
      );
  }
  const failure = replicaFailure(i.all, newRS);
  if (failure === undefined) removeCondition(status, 'ReplicaFailure');
  else setCondition(status, failure);
  return status;
}

/** The Deployment's status with another Progressing condition. */
export function progressingStatus(
  d: Deployment,
  c: { status: string; reason: string; message: string; now: string },
): DeploymentStatus {
  const status: DeploymentStatus = { ...d.status, conditions: [...(d.status?.conditions ?? [])] };
  setCondition(status, newCondition('Progressing', c));
  return status;
}

/**
 * checkPausedConditions: Progressing Unknown when paused and when resumed, so that the time paused
 * never counts against the progress deadline; undefined when nothing changes.
 */
export function pausedStatus(d: Deployment, now: string): DeploymentStatus | undefined {
  if (!hasProgressDeadline(d.spec?.progressDeadlineSeconds)) return undefined;
  const current = getCondition(d.status, 'Progressing');
  if (current?.reason === reasons.timedOut) return undefined;
  const pausedNoted = current?.reason === reasons.paused;
  const paused = d.spec?.paused === true;
  if (paused === pausedNoted) return undefined;
  return progressingStatus(d, {
    status: 'Unknown',
    reason: paused ? reasons.paused : reasons.resumed,
    message: paused ? 'Deployment is paused' : 'Deployment is resumed',
    now,
  });
}
