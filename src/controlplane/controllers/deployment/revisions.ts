// Revision annotations (deployment/util): the revision each ReplicaSet was the template of, the
// Deployment's current one, and the annotations a new ReplicaSet copies from its Deployment.
import type { Deployment } from '../../../api/apps/v1/deployment.js';
import type { ReplicaSet } from '../../../api/apps/v1/replica-set.js';

export const revisionAnnotation = 'deployment.kubernetes.io/revision';
export const revisionHistoryAnnotation = 'deployment.kubernetes.io/revision-history';
export const desiredReplicasAnnotation = 'deployment.kubernetes.io/desired-replicas';
export const maxReplicasAnnotation = 'deployment.kubernetes.io/max-replicas';

/** Annotations of the Deployment a ReplicaSet does not copy (annotationsToSkip). */
const skipped = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  revisionAnnotation,
  revisionHistoryAnnotation,
  desiredReplicasAnnotation,
  maxReplicasAnnotation,
  'deprecated.deployment.rollback.to',
]);

export const revisionOf = (rs: ReplicaSet): number =>
  Number.parseInt(rs.metadata?.annotations?.[revisionAnnotation] ?? '0', 10) || 0;

export const maxRevision = (rss: readonly ReplicaSet[]): number => Math.max(0, ...rss.map(revisionOf));

export function copiedAnnotations(d: Deployment): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(d.metadata?.annotations ?? {})) if (!skipped.has(k)) out[k] = v;
  return out;
}

/**
 * SetNewReplicaSetAnnotations: the Deployment's annotations, the new revision (the one it had kept
 * in revision-history), and, for a ReplicaSet about to be created (`maxReplicas` given), the
 * replica counts the rollout aims at; an existing one's change only when it is scaled.
 */
export function newReplicaSetAnnotations(
  d: Deployment,
  rs: ReplicaSet,
  at: { revision: number; maxReplicas?: number },
): Record<string, string> {
  const old = rs.metadata?.annotations ?? {};
  const annotations: Record<string, string> = { ...old, ...copiedAnnotations(d) };
  const previous = old[revisionAnnotation];
  if (previous !== undefined && Number(previous) < at.revision) {
    const history = old[revisionHistoryAnnotation];
    annotations[revisionHistoryAnnotation] = history === undefined ? previous : `${history},${previous}`;
  }
  if (previous === undefined || Number(previous) < at.revision)
    annotations[revisionAnnotation] = String(at.revision);
  if (at.maxReplicas !== undefined) {
    annotations[desiredReplicasAnnotation] = String(d.spec?.replicas ?? 1);
    annotations[maxReplicasAnnotation] = String(at.maxReplicas);
  }
  return annotations;
}
