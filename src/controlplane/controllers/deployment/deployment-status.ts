// A Deployment's status from its ReplicaSets (calculateStatus in pkg/controller/deployment/sync.go):
// the counts, the conditions it had, and the Available condition. The Progressing and
// ReplicaFailure conditions are the rollout's (progress.ts).
import type { Deployment, DeploymentStatus } from '../../../api/apps/v1/deployment.js';
import type { ReplicaSet } from '../../../api/apps/v1/replica-set.js';
import { jsonEqual } from '../../../machinery/patch/json.js';
import { newCondition, setCondition } from './conditions.js';
import { maxUnavailable } from './rolling-math.js';

const sum = (rss: readonly ReplicaSet[], f: (rs: ReplicaSet) => number | undefined): number =>
  rss.reduce((n, rs) => n + (f(rs) ?? 0), 0);

export interface StatusInput {
  readonly d: Deployment;
  readonly all: readonly ReplicaSet[];
  readonly newRS: ReplicaSet | undefined;
  readonly now: string;
}

export function calculateStatus(i: StatusInput): DeploymentStatus {
  const { d, all, newRS, now } = i;
  const available = sum(all, (rs) => rs.status?.availableReplicas);
  // Unavailable counts the replicas asked for (spec), not the ones there are.
  const wanted = sum(all, (rs) => rs.spec?.replicas);
  const status: DeploymentStatus = {
    observedGeneration: d.metadata?.generation ?? 0,
    replicas: sum(all, (rs) => rs.status?.replicas),
    updatedReplicas: newRS?.status?.replicas ?? 0,
    readyReplicas: sum(all, (rs) => rs.status?.readyReplicas),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, wanted - available),
    ...(d.status?.collisionCount === undefined ? {} : { collisionCount: d.status.collisionCount }),
    conditions: [...(d.status?.conditions ?? [])],
  };
  const minimum = available >= (d.spec?.replicas ?? 1) - maxUnavailable(d);
  setCondition(
    status,
    minimum
      ? newCondition('Available', {
          status: 'True',
          reason: 'MinimumReplicasAvailable',
          message: 'Deployment has minimum availability.',
          now,
        })
      : newCondition('Available', {
          status: 'False',
          reason: 'MinimumReplicasUnavailable',
          message: 'Deployment does not have minimum availability.',
          now,
        }),
  );
  return status;
}

const countFields = [
  'observedGeneration',
  'replicas',
  'updatedReplicas',
  'readyReplicas',
  'availableReplicas',
  'unavailableReplicas',
  'terminatingReplicas',
  'collisionCount',
] as const;

/** reflect.DeepEqual of two statuses, with a zero count the same as an absent one (omitempty). */
export function sameStatus(a: DeploymentStatus | undefined, b: DeploymentStatus): boolean {
  if (countFields.some((f) => (a?.[f] ?? 0) !== (b[f] ?? 0))) return false;
  return jsonEqual(a?.conditions ?? [], b.conditions ?? []);
}
