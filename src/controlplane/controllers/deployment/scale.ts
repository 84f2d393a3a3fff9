// dc.scale (deployment/sync.go) for a scaling event or a paused Deployment: the one active
// ReplicaSet (or the newest, when none is active) takes the whole new size; a saturated new one
// leaves the old ones at zero; otherwise, for a rolling update, the replicas added or removed are
// shared among the active ReplicaSets in proportion to their sizes, so that a scale in the middle
// of a rollout neither hastens nor slows it.
import type { Deployment } from '../../../api/apps/v1/deployment.js';
import type { ReplicaSet } from '../../../api/apps/v1/replica-set.js';
import { desiredReplicasAnnotation, maxReplicasAnnotation } from './revisions.js';
import { isRollingUpdate, resolveFenceposts, specReplicas } from './rolling-math.js';

/** One ReplicaSet's new size; `annotate`: written also when only its replica annotations are stale. */
export interface ScaleStep {
  readonly rs: ReplicaSet;
  readonly replicas: number;
  readonly annotate: boolean;
}

const sizeOf = (rs: ReplicaSet): number => rs.spec?.replicas ?? 0;
const isActive = (rs: ReplicaSet | undefined): rs is ReplicaSet => rs !== undefined && sizeOf(rs) > 0;

/** MaxSurge: none for Recreate. */
export const maxSurgeOf = (d: Deployment): number => (isRollingUpdate(d) ? resolveFenceposts(d).maxSurge : 0);

const annotatedNumber = (rs: ReplicaSet, key: string): number | undefined => {
  const text = rs.metadata?.annotations?.[key];
  if (text === undefined || !/^-?\d+$/.test(text)) return undefined;
  return Number(text);
};

/** ReplicaSetsByCreationTimestamp: older first, then by name. */
function olderFirst(a: ReplicaSet, b: ReplicaSet): number {
  const at = Date.parse(a.metadata?.creationTimestamp ?? '') || 0;
  const bt = Date.parse(b.metadata?.creationTimestamp ?? '') || 0;
  if (at !== bt) return at - bt;
  const an = a.metadata?.name ?? '';
  const bn = b.metadata?.name ?? '';
  return an < bn ? -1 : an > bn ? 1 : 0;
}

/** isScalingEvent: an active ReplicaSet was sized for another spec.replicas. */
export function isScalingEvent(d: Deployment, all: readonly (ReplicaSet | undefined)[]): boolean {
  const replicas = d.spec?.replicas ?? 1;
  return all.filter(isActive).some((rs) => {
    const desired = annotatedNumber(rs, desiredReplicasAnnotation);
    return desired !== undefined && desired !== replicas;
  });
}

/** FindActiveOrLatest: the only active ReplicaSet, or the newest when none is active. */
function activeOrLatest(newRS: ReplicaSet | undefined, old: readonly ReplicaSet[]): ReplicaSet | undefined {
  const active = [...old, newRS].filter(isActive);
  if (active.length === 1) return active[0];
  if (active.length > 1) return undefined;
  return newRS ?? [...old].sort(olderFirst).at(-1);
}

/** IsSaturated: the new ReplicaSet has, wants and makes available all the Deployment's replicas. */
function isSaturated(d: Deployment, rs: ReplicaSet | undefined): boolean {
  const replicas = d.spec?.replicas ?? 1;
  return (
    rs !== undefined &&
    sizeOf(rs) === replicas &&
    annotatedNumber(rs, desiredReplicasAnnotation) === replicas &&
    (rs.status?.availableReplicas ?? 0) === replicas
  );
}

/** getReplicaSetFraction: what this ReplicaSet's size becomes at the new maximum, less its size now. */
function fraction(rs: ReplicaSet, d: Deployment): number {
  const replicas = d.spec?.replicas ?? 1;
  if (replicas === 0) return -sizeOf(rs);
  const before = annotatedNumber(rs, maxReplicasAnnotation) ?? d.status?.replicas ?? 0;
  if (before === 0) return 0;
  const scaled = (sizeOf(rs) * (replicas + maxSurgeOf(d))) / before;
  // Go's math.Round: halves away from zero.
  return Math.sign(scaled) * Math.round(Math.abs(scaled)) - sizeOf(rs);
}

/** GetProportion: the fraction, bounded by what is left to add (or remove). */
function proportion(rs: ReplicaSet, d: Deployment, left: { toAdd: number; added: number }): number {
  if (sizeOf(rs) === 0 || left.toAdd === 0 || left.toAdd === left.added) return 0;
  const allowed = left.toAdd - left.added;
  const f = fraction(rs, d);
  return left.toAdd > 0 ? Math.min(f, allowed) : Math.max(f, allowed);
}

/** The proportional share among the active ReplicaSets of a rolling update. */
function proportionalSteps(d: Deployment, active: ReplicaSet[]): ScaleStep[] {
  const replicas = d.spec?.replicas ?? 1;
  const allowedSize = replicas > 0 ? replicas + maxSurgeOf(d) : 0;
  const toAdd = allowedSize - specReplicas(active);
  // Larger first; among equals the newer first when growing, the older first when shrinking.
  active.sort((a, b) => sizeOf(b) - sizeOf(a) || (toAdd > 0 ? olderFirst(b, a) : olderFirst(a, b)));
  const sizes = new Map<ReplicaSet, number>();
  const left = { toAdd, added: 0 };
  for (const rs of active) {
    const p = proportion(rs, d, left);
    sizes.set(rs, sizeOf(rs) + p);
    left.added += p;
  }
  return active.map((rs, i) => {
    let size = sizes.get(rs) ?? sizeOf(rs);
    // The leftover goes to the largest.
    if (i === 0 && toAdd !== 0) size = Math.max(0, size + toAdd - left.added);
    return { rs, replicas: size, annotate: true };
  });
}

/** What dc.scale does, as the steps to take in order. */
export function scaleSteps(
  d: Deployment,
  newRS: ReplicaSet | undefined,
  old: readonly ReplicaSet[],
): ScaleStep[] {
  const replicas = d.spec?.replicas ?? 1;
  const only = activeOrLatest(newRS, old);
  if (only !== undefined) return sizeOf(only) === replicas ? [] : [{ rs: only, replicas, annotate: false }];
  if (isSaturated(d, newRS)) return old.filter(isActive).map((rs) => ({ rs, replicas: 0, annotate: false }));
  if (!isRollingUpdate(d)) return [];
  return proportionalSteps(d, [...old, newRS].filter(isActive));
}
