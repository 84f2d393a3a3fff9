// Quota scopes (pkg/quota/v1/resources.go, evaluator/core/pods.go podMatchesScopeFunc): spec.scopes
// are Exists requirements, spec.scopeSelector adds In/NotIn/Exists/DoesNotExist; an object is
// under the quota when every requirement holds.
import type { ResourceQuota } from '../../../../api/core/v1/resource-quota.js';

export interface ScopeValue {
  /** Whether the object is in the scope at all. */
  readonly present: boolean;
  /** The scope's value for In and NotIn (the priority class). */
  readonly value?: string;
}

interface Requirement {
  readonly scopeName: string;
  readonly operator: string;
  readonly values: readonly string[];
}

function requirementsOf(quota: ResourceQuota): Requirement[] {
  const fromScopes = (quota.spec?.scopes ?? []).map((scopeName) => ({
    scopeName,
    operator: 'Exists',
    values: [],
  }));
  const fromSelector = (quota.spec?.scopeSelector?.matchExpressions ?? []).map((r) => ({
    scopeName: r.scopeName,
    operator: r.operator,
    values: r.values ?? [],
  }));
  return [...fromScopes, ...fromSelector];
}

/** Whether the quota has any scope (objects without scopes match only unscoped quotas). */
export const isScoped = (quota: ResourceQuota): boolean => requirementsOf(quota).length > 0;

function holds(r: Requirement, v: ScopeValue): boolean {
  switch (r.operator) {
    case 'Exists':
      return v.present;
    case 'DoesNotExist':
      return !v.present;
    case 'In':
      return v.present && (v.value === undefined || r.values.includes(v.value));
    case 'NotIn':
      return !v.present || v.value === undefined || !r.values.includes(v.value);
    default:
      return false;
  }
}

export function selectorMatches(quota: ResourceQuota, valueOf: (scope: string) => ScopeValue): boolean {
  return requirementsOf(quota).every((r) => holds(r, valueOf(r.scopeName)));
}
