// The rules an aggregated ClusterRole gets (clusterroleaggregation_controller.go syncClusterRole):
// for each of its selectors in turn, the ClusterRoles it matches, by name, itself left out, and of
// their rules each one not already taken.
import type { AggregationRule, ClusterRole, PolicyRule } from '../../api/rbac/v1/rbac.js';
import { labelSelectorAsSelector } from '../../machinery/labels/index.js';
import { jsonEqual } from '../../machinery/patch/json.js';
import { compareGoStrings } from '../../machinery/validation/index.js';

const ruleFields = ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const;

/** A rule as the API serves it: each list omitted when empty (they are all omitempty). */
function canonicalRule(rule: PolicyRule): PolicyRule {
  const out: PolicyRule = {};
  for (const f of ruleFields) {
    const values = rule[f];
    if (values !== undefined && values.length > 0) out[f] = values;
  }
  return out;
}

/** Whether two rule lists are the same rules in the same order (equality.Semantic over the API form). */
export function sameRules(a: readonly PolicyRule[] | null | undefined, b: readonly PolicyRule[]): boolean {
  const left = a ?? [];
  return (
    left.length === b.length && left.every((r, i) => jsonEqual(canonicalRule(r), canonicalRule(b[i] ?? {})))
  );
}

/** Whether the role has an aggregationRule (a decoded body may carry null, which Go reads as none). */
export function isAggregated(role: ClusterRole): boolean {
  return (role.aggregationRule as AggregationRule | null | undefined) != null;
}

/**
 * The rules `role`'s aggregationRule collects from `all`; undefined for a role without one. A
 * selector that does not parse throws, as kube's sync fails and retries.
 */
export function aggregatedRules(role: ClusterRole, all: readonly ClusterRole[]): PolicyRule[] | undefined {
  if (!isAggregated(role)) return undefined;
  const selectors = role.aggregationRule?.clusterRoleSelectors ?? [];
  const name = role.metadata?.name ?? '';
  const byName = [...all].sort((x, y) => compareGoStrings(x.metadata?.name ?? '', y.metadata?.name ?? ''));
  const rules: PolicyRule[] = [];
  const taken: PolicyRule[] = [];
  for (const s of selectors) {
    const parsed = labelSelectorAsSelector(s);
    if (!parsed.ok) throw new Error(parsed.message);
    for (const other of byName) {
      if (other.metadata?.name === name || !parsed.selector.matches(other.metadata?.labels ?? {})) continue;
      for (const r of other.rules ?? []) {
        const canonical = canonicalRule(r);
        if (taken.some((t) => jsonEqual(t, canonical))) continue;
        taken.push(canonical);
        rules.push(r);
      }
    }
  }
  return rules;
}
