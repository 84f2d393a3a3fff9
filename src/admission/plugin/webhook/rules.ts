// Whether a webhook rule covers a request (k8s.io/apiserver/pkg/admission/plugin/webhook/
// predicates/rules/rules.go): scope, operation, group, version, then resource and subresource.
import type { GroupVersionResource } from '../../../machinery/schema/group-resource.js';
import type { Attributes } from '../../attributes.js';
import type { ParsedRule } from './accessor.js';

function exactOrWildcard(items: readonly string[], requested: string): boolean {
  for (const item of items) if (item === '*' || item === requested) return true;
  return false;
}

const isNamespaceResource = (r: GroupVersionResource): boolean =>
  r.group === '' && r.version === 'v1' && r.resource === 'namespaces';

function scopeMatches(rule: ParsedRule, a: Attributes, resource: GroupVersionResource): boolean {
  switch (rule.scope) {
    case '*':
      return true;
    // A namespace is cluster-scoped even though its requests carry its own name as namespace.
    case 'Namespaced':
      return !isNamespaceResource(resource) && a.namespace !== '';
    case 'Cluster':
      return isNamespaceResource(resource) || a.namespace === '';
    default:
      return false;
  }
}

function resourceMatches(rule: ParsedRule, resource: string, subresource: string): boolean {
  for (const p of rule.resources) {
    if (
      (p.resource === '*' || p.resource === resource) &&
      (p.subresource === '*' || p.subresource === subresource)
    )
      return true;
  }
  return false;
}

/** rules.Matcher.Matches, for the request's resource or (matchPolicy Equivalent) an equivalent one. */
export function ruleMatches(
  rule: ParsedRule,
  a: Attributes,
  resource: GroupVersionResource = a.resource,
): boolean {
  return (
    scopeMatches(rule, a, resource) &&
    exactOrWildcard(rule.operations, a.operation) &&
    exactOrWildcard(rule.apiGroups, resource.group) &&
    exactOrWildcard(rule.apiVersions, resource.version) &&
    resourceMatches(rule, resource.resource, a.subresource)
  );
}

const admissionConfigurationKinds: ReadonlySet<string> = new Set([
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'MutatingAdmissionPolicy',
  'MutatingAdmissionPolicyBinding',
]);

/**
 * IsExemptAdmissionConfigurationResource: webhooks never see requests on the objects that
 * configure admission, so a broken webhook cannot lock out its own repair.
 */
export function isExemptAdmissionConfigurationResource(a: Attributes): boolean {
  return a.kind.group === 'admissionregistration.k8s.io' && admissionConfigurationKinds.has(a.kind.kind);
}
