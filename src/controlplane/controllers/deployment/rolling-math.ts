// The arithmetic of a rolling update (deployment/util/deployment_util.go): maxSurge and
// maxUnavailable resolved against spec.replicas, and how far the new ReplicaSet may grow.
import type { Deployment } from '../../../api/apps/v1/deployment.js';
import type { ReplicaSet } from '../../../api/apps/v1/replica-set.js';
import type { IntOrString } from '../../../api/util/int-or-string.js';

/** intstr.GetScaledValueFromIntOrPercent. */
function scaled(v: IntOrString | undefined, total: number, roundUp: boolean): number {
  if (v === undefined) return 0;
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (m === null) return Number.parseInt(v, 10) || 0;
  const exact = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

/** ResolveFenceposts: both zero would deadlock, so maxUnavailable becomes 1. */
export function resolveFenceposts(d: Deployment): { maxSurge: number; maxUnavailable: number } {
  const replicas = d.spec?.replicas ?? 1;
  const ru = d.spec?.strategy?.rollingUpdate;
  const maxSurge = scaled(ru?.maxSurge ?? '25%', replicas, true);
  let maxUnavailable = scaled(ru?.maxUnavailable ?? '25%', replicas, false);
  if (maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable };
}

export const isRollingUpdate = (d: Deployment): boolean =>
  (d.spec?.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';

/** MaxUnavailable as the Available condition reads it: 0 for Recreate, at most spec.replicas. */
export const maxUnavailable = (d: Deployment): number =>
  isRollingUpdate(d) && (d.spec?.replicas ?? 1) > 0
    ? Math.min(d.spec?.replicas ?? 1, resolveFenceposts(d).maxUnavailable)
    : 0;

export const specReplicas = (rss: readonly ReplicaSet[]): number =>
  rss.reduce((n, rs) => n + (rs.spec?.replicas ?? 0), 0);

/** NewRSNewReplicas: how many replicas the new ReplicaSet should have now. */
export function newRSNewReplicas(
  d: Deployment,
  all: readonly ReplicaSet[],
  newRS: ReplicaSet | undefined,
): number {
  const replicas = d.spec?.replicas ?? 1;
  if (!isRollingUpdate(d)) return replicas;
  const current = newRS?.spec?.replicas ?? 0;
  const { maxSurge } = resolveFenceposts(d);
  const maxTotal = replicas + maxSurge;
  const total = specReplicas(all);
  if (total >= maxTotal) return current;
  return current + Math.max(0, Math.min(maxTotal - total, replicas - current));
}
