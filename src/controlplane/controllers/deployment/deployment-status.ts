// A Deployment's status from its ReplicaSets (calculateStatus and syncRolloutStatus in
// pkg/controller/deployment): counts, and the Available and Progressing conditions.
import type { Deployment, DeploymentStatus } from '../../../api/apps/v1/deployment.js';
import type { AppsCondition } from '../../../api/apps/v1/group.js';
import type { ReplicaSet } from '../../../api/apps/v1/replica-set.js';
import { maxUnavailable } from './rolling-math.js';

const sum = (rss: readonly ReplicaSet[], f: (rs: ReplicaSet) => number | undefined): number =>
  rss.reduce((n, rs) => n + (f(rs) ?? 0), 0);

/** SetDeploymentCondition: an unchanged status keeps its lastTransitionTime. */
function setCondition(conditions: AppsCondition[], c: AppsCondition): AppsCondition[] {
  const old = conditions.find((x) => x.type === c.type);
  if (old !== undefined && old.status === c.status && old.reason === c.reason && old.message === c.message)
    return conditions;
  const since = old !== undefined && old.status === c.status ? old.lastTransitionTime : undefined;
  const next = since === undefined ? c : { ...c, lastTransitionTime: since };
  return [...conditions.filter((x) => x.type !== c.type), next];
}

export interface StatusInput {
  readonly d: Deployment;
  readonly all: readonly ReplicaSet[];
  readonly newRS: ReplicaSet | undefined;
  /** The Progressing reason of this sync when it made or found the new ReplicaSet. */
  readonly progress?: 'NewReplicaSetCreated' | 'FoundNewReplicaSet';
  readonly now: string;
}

export function deploymentStatus(i: StatusInput): DeploymentStatus {
  const { d, all, newRS, now } = i;
  const replicas = d.spec?.replicas ?? 1;
  const available = sum(all, (rs) => rs.status?.availableReplicas);
  const total = sum(all, (rs) => rs.status?.replicas);
  const status: DeploymentStatus = {
    observedGeneration: d.metadata?.generation ?? 0,
    replicas: total,
    updatedReplicas: newRS?.status?.replicas ?? 0,
    readyReplicas: sum(all, (rs) => rs.status?.readyReplicas),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, total - available),
    ...(d.status?.collisionCount === undefined ? {} : { collisionCount: d.status.collisionCount }),
  };
  const cond = (...[type = '', state = '', reason = '', message = '']: readonly string[]): AppsCondition => ({
    type,
    status: state,
    lastUpdateTime: now,
    lastTransitionTime: now,
    reason,
    message,
  });
  let conditions = [...(d.status?.conditions ?? [])];
  conditions = setCondition(
    conditions,
    available >= replicas - maxUnavailable(d)
      ? cond('Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.')
      : cond(
          'Available',
          'False',
          'MinimumReplicasUnavailable',
          'Deployment does not have minimum availability.',
        ),
  );
  const name = newRS?.metadata?.name ?? '';
  const complete =
    newRS !== undefined &&
    status.updatedReplicas === replicas &&
    status.replicas === replicas &&
    available === replicas;
  if (complete)
    conditions = setCondition(
      conditions,
      cond(
        'Progressing',
        'True',
        'NewReplicaSetAvailable',
        `ReplicaSet "${name}" has successfully progressed.`,
      ),
    );
  else if (i.progress === 'NewReplicaSetCreated')
    conditions = setCondition(
      conditions,
      cond('Progressing', 'True', i.progress, `Created new replica set "${name}"`),
    );
  else if (i.progress === 'FoundNewReplicaSet' && !conditions.some((c) => c.type === 'Progressing'))
    conditions = setCondition(
      conditions,
      cond('Progressing', 'True', i.progress, `Found new replica set "${name}"`),
    );
  else if (newRS !== undefined)
    conditions = setCondition(
      conditions,
      cond('Progressing', 'True', 'ReplicaSetUpdated', `ReplicaSet "${name}" is progressing.`),
    );
  status.conditions = conditions;
  return status;
}
