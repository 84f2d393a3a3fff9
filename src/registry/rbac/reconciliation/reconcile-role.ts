// What reconciling a bootstrap Role or ClusterRole with the stored one does
// (k8s.io/component-helpers/auth/rbac/reconciliation reconcile_role.go computeReconciledRole, in
// its union mode, the one the bootstrap hook uses): missing labels and annotations are added
// (stored values win), rules the stored role does not cover are appended broken down, and the
// aggregation selectors it lacks are appended. A role annotated autoupdate "false" is protected.
import type { AggregationRule, ClusterRole, PolicyRule } from '../../../api/rbac/v1/rbac.js';
import type { LabelSelector } from '../../../api/meta/v1/label-selector.js';
import type { ObjectMeta } from '../../../api/meta.js';
import { deepCopyJSON } from '../../../machinery/json/deep-copy.js';
import { jsonEqual } from '../../../machinery/patch/json.js';
import { uncoveredRules } from '../policy-rules.js';

export const autoUpdateAnnotation = 'rbac.authorization.kubernetes.io/autoupdate';

export const reconcileOperations = ['none', 'create', 'update', 'recreate'] as const;
export type ReconcileOperation = (typeof reconcileOperations)[number];

export interface RoleReconcileResult {
  readonly operation: ReconcileOperation;
  /** The stored object opted out (autoupdate "false"): nothing is written whatever it lacks. */
  readonly protected: boolean;
  /** What to create or update to. */
  readonly role: ClusterRole;
  readonly missingRules: readonly PolicyRule[];
}

type Meta = { metadata?: ObjectMeta };

/**
 * Fills `target`'s labels and annotations with the expected keys the stored object lacks (stored
 * values win, as merge() lets the later map win); true when that changed them.
 */
export function mergeMetadata(target: Meta, stored: Meta, expected: Meta): boolean {
  const meta = (target.metadata ??= {});
  let changed = false;
  for (const field of ['labels', 'annotations'] as const) {
    const merged = { ...expected.metadata?.[field], ...stored.metadata?.[field] };
    if (jsonEqual(merged, stored.metadata?.[field] ?? {})) continue;
    meta[field] = merged;
    changed = true;
  }
  return changed;
}

export const isProtected = (obj: { metadata?: { annotations?: Record<string, string> } }): boolean =>
  obj.metadata?.annotations?.[autoUpdateAnnotation] === 'false';

/** The expected selectors that no stored selector equals. */
function missingSelectors(
  stored: AggregationRule | undefined,
  expected: AggregationRule | undefined,
): LabelSelector[] {
  const have = stored?.clusterRoleSelectors ?? [];
  return (expected?.clusterRoleSelectors ?? []).filter((want) => !have.some((s) => jsonEqual(s, want)));
}

export function reconcileRole(stored: ClusterRole | undefined, expected: ClusterRole): RoleReconcileResult {
  if (stored === undefined)
    return { operation: 'create', protected: false, role: expected, missingRules: expected.rules ?? [] };
  const role: ClusterRole = deepCopyJSON(stored);
  let changed = mergeMetadata(role, stored, expected);
  const missingRules = uncoveredRules(stored.rules ?? [], expected.rules ?? []);
  if (missingRules.length > 0) {
    role.rules = [...(role.rules ?? []), ...missingRules];
    changed = true;
  }
  if (expected.aggregationRule === undefined && stored.aggregationRule !== undefined) {
    delete role.aggregationRule;
    changed = true;
  } else {
    const selectors = missingSelectors(stored.aggregationRule, expected.aggregationRule);
    if (selectors.length > 0) {
      role.aggregationRule = {
        clusterRoleSelectors: [...(role.aggregationRule?.clusterRoleSelectors ?? []), ...selectors],
      };
      changed = true;
    }
  }
  return { operation: changed ? 'update' : 'none', protected: isProtected(stored), role, missingRules };
}
