// Whether one NamedRuleWithOperations covers a request (k8s.io/apiserver/pkg/admission/plugin/
// webhook/predicates/rules/rules.go, and the resourceNames check of plugin/cel/matching).
import type { NamedRuleWithOperations } from '../../../../api/admissionregistration/v1/policy.js';
import type { GroupVersionResource } from '../../../../machinery/schema/group-resource.js';
import type { Attributes } from '../../../attributes.js';

const anyOf = (values: readonly string[] | undefined, value: string): boolean =>
  (values ?? []).some((v) => v === '*' || v === value);

const isNamespacesResource = (a: Attributes): boolean =>
  a.resource.group === '' && a.resource.resource === 'namespaces';

/** `pods`, `pods/status`, `pods/*`, `*\/status`, `*\/*`; a bare `*` covers main resources only. */
function resourceMatches(resources: readonly string[] | undefined, resource: string, sub: string): boolean {
  for (const r of resources ?? []) {
    const slash = r.indexOf('/');
    const res = slash < 0 ? r : r.slice(0, slash);
    const rsub = slash < 0 ? '' : r.slice(slash + 1);
    if ((res === '*' || res === resource) && (rsub === '*' || rsub === sub)) return true;
  }
  return false;
}

/** Namespace objects are cluster-scoped though their requests carry their own name as namespace. */
function scopeMatches(scope: string | undefined, a: Attributes): boolean {
  switch (scope) {
    case 'Namespaced':
      return !isNamespacesResource(a) && a.namespace !== '';
    case 'Cluster':
      return isNamespacesResource(a) || a.namespace === '';
    case '*':
    case undefined:
    default:
      return true;
  }
}

/** The request's name as the rule sees it: on create, the object's (a generated name is not yet known). */
function requestName(a: Attributes): string {
  if (a.name !== '') return a.name;
  return a.operation === 'CREATE' ? (a.object?.metadata?.name ?? '') : '';
}

/** rules.Matcher.Matches for `resource` (the request's, or an equivalent one under matchPolicy Equivalent). */
export function ruleMatches(
  rule: NamedRuleWithOperations,
  a: Attributes,
  resource: GroupVersionResource = a.resource,
): boolean {
  if (!anyOf(rule.operations, a.operation)) return false;
  if (!anyOf(rule.apiGroups, resource.group) || !anyOf(rule.apiVersions, resource.version)) return false;
  if (!resourceMatches(rule.resources, resource.resource, a.subresource)) return false;
  if (!scopeMatches(rule.scope, a)) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(requestName(a));
}
