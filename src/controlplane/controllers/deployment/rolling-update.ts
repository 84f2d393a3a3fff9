// reconcileOldReplicaSets (deployment/rolling.go): scale old ReplicaSets down as far as
// maxUnavailable allows, their unhealthy replicas first, then the oldest ones.
import type { Deployment } from '../../../api/apps/v1/deployment.js';
import type { ReplicaSet } from '../../../api/apps/v1/replica-set.js';
import { resolveFenceposts, specReplicas } from './rolling-math.js';
import { revisionOf } from './revisions.js';

/**
 * Sets a ReplicaSet's spec.replicas; true when it changed it. `annotate`: its replica annotations
 * are brought up to date even when the size stays.
 */
export type Scaler = (rs: ReplicaSet, replicas: number, annotate?: boolean) => Promise<boolean>;

export async function scaleDownOld(i: {
  d: Deployment;
  newRS: ReplicaSet;
  old: readonly ReplicaSet[];
  scale: Scaler;
}): Promise<boolean> {
  const { d, newRS, scale } = i;
  const old = [...i.old].sort((a, b) => revisionOf(a) - revisionOf(b));
  if (specReplicas(old) === 0) return false;
  const replicas = d.spec?.replicas ?? 1;
  const all = [newRS, ...old];
  const minAvailable = replicas - resolveFenceposts(d).maxUnavailable;
  const newUnavailable = (newRS.spec?.replicas ?? 0) - (newRS.status?.availableReplicas ?? 0);
  let budget = specReplicas(all) - minAvailable - newUnavailable;
  if (budget <= 0) return false;
  let scaled = false;
  const remaining = new Map(old.map((rs) => [rs, rs.spec?.replicas ?? 0]));
  // cleanupUnhealthyReplicas: replicas that are not available cost no availability.
  for (const rs of old) {
    if (budget <= 0) break;
    const have = remaining.get(rs) ?? 0;
    const unhealthy = have - (rs.status?.availableReplicas ?? 0);
    const cut = Math.min(budget, Math.max(0, unhealthy));
    if (cut === 0) continue;
    if (await scale(rs, have - cut)) scaled = true;
    remaining.set(rs, have - cut);
    budget -= cut;
  }
  // scaleDownOldReplicaSetsForRollingUpdate: only as many as leave minAvailable available.
  const available = all.reduce((n, rs) => n + (rs.status?.availableReplicas ?? 0), 0);
  let total = available - minAvailable;
  for (const rs of old) {
    if (total <= 0) break;
    const have = remaining.get(rs) ?? 0;
    const cut = Math.min(have, total);
    if (cut === 0) continue;
    if (await scale(rs, have - cut)) scaled = true;
    total -= cut;
  }
  return scaled;
}
