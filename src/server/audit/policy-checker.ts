// Which level and stages a request is audited at (k8s.io/apiserver/pkg/audit/policy/checker.go):
// the first rule that matches decides; no rule matching means None.
import type { AuthorizationAttributes } from '../../registry/rest/authorizer.js';
import type { AuditLevel, AuditPolicy, AuditPolicyRule, Stage } from './types.js';

export interface RequestAuditConfig {
  readonly level: AuditLevel;
  readonly omitStages: readonly Stage[];
  readonly omitManagedFields: boolean;
}

const none: RequestAuditConfig = { level: 'None', omitStages: [], omitManagedFields: false };

function matchesNonResource(rule: AuditPolicyRule, attrs: AuthorizationAttributes): boolean {
  if (attrs.resourceRequest) return false;
  const path = attrs.path ?? '';
  return (rule.nonResourceURLs ?? []).some((spec) =>
    spec.endsWith('*') ? path.startsWith(spec.slice(0, -1)) : spec === path,
  );
}

function matchesResource(rule: AuditPolicyRule, attrs: AuthorizationAttributes): boolean {
  if (!attrs.resourceRequest) return false;
  const namespaces = rule.namespaces ?? [];
  if (namespaces.length > 0 && !namespaces.includes(attrs.namespace ?? '')) return false;
  const groups = rule.resources ?? [];
  if (groups.length === 0) return true;
  const resource = attrs.resource ?? '';
  const subresource = attrs.subresource ?? '';
  const combined = subresource === '' ? resource : `${resource}/${subresource}`;
  const name = attrs.name ?? '';
  return groups.some((gr) => {
    if ((gr.group ?? '') !== (attrs.apiGroup ?? '')) return false;
    const resources = gr.resources ?? [];
    if (resources.length === 0) return true;
    return resources.some((r) => {
      const hit =
        r === combined ||
        r === '*' ||
        (r.startsWith('*/') && r === `*/${subresource}`) ||
        (r.endsWith('/*') && r === `${resource}/*`);
      if (!hit) return false;
      const names = gr.resourceNames ?? [];
      return names.length === 0 || names.includes(name);
    });
  });
}

export function ruleMatches(rule: AuditPolicyRule, attrs: AuthorizationAttributes): boolean {
  const users = rule.users ?? [];
  if (users.length > 0 && !users.includes(attrs.user.name)) return false;
  const userGroups = rule.userGroups ?? [];
  if (userGroups.length > 0 && !attrs.user.groups.some((g) => userGroups.includes(g))) return false;
  const verbs = rule.verbs ?? [];
  if (verbs.length > 0 && !verbs.includes(attrs.verb)) return false;
  if ((rule.namespaces ?? []).length > 0 || (rule.resources ?? []).length > 0)
    return matchesResource(rule, attrs);
  if ((rule.nonResourceURLs ?? []).length > 0) return matchesNonResource(rule, attrs);
  return true;
}

export function auditConfigFor(policy: AuditPolicy, attrs: AuthorizationAttributes): RequestAuditConfig {
  const rule = policy.rules.find((r) => ruleMatches(r, attrs));
  if (rule === undefined) return none;
  return {
    level: rule.level,
    omitStages: [...new Set([...(policy.omitStages ?? []), ...(rule.omitStages ?? [])])],
    omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields ?? false,
  };
}
