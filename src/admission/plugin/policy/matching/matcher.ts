// Whether a policy's matchConstraints or a binding's matchResources take a request
// (k8s.io/apiserver/pkg/admission/plugin/policy/matching/matching.go, with the namespace and object
// predicates of plugin/webhook/predicates): the namespace and object selectors, the excluded rules,
// then the resource rules, exactly or, under matchPolicy Equivalent, through an equivalent resource.
import type {
  MatchResources,
  NamedRuleWithOperations,
} from '../../../../api/admissionregistration/v1/policy.js';
import type { KubeObject } from '../../../../api/meta.js';
import type { LabelSelector } from '../../../../api/meta/v1/label-selector.js';
import { labelSelectorAsSelector, type Labels } from '../../../../machinery/labels/index.js';
import type { GroupVersionResource } from '../../../../machinery/schema/group-resource.js';
import type { Attributes } from '../../../attributes.js';
import { ruleMatches } from './rules.js';

export interface MatchEnvironment {
  /** The labels of a namespace, undefined when it does not exist. */
  namespaceLabels(name: string): Promise<Labels | undefined>;
  /** The same resource served under other group versions (kube's EquivalentResourceMapper). */
  equivalentResources(resource: GroupVersionResource): readonly GroupVersionResource[];
}

/** A selector that cannot be parsed is a configuration error of the policy or binding. */
export class MatchConfigError extends Error {}

function selectorMatches(selector: LabelSelector | undefined, labels: Labels): boolean {
  if (selector === undefined) return true; // defaulted to {} on write: everything
  const parsed = labelSelectorAsSelector(selector);
  if (!parsed.ok) throw new MatchConfigError(parsed.message);
  return parsed.selector.matches(labels);
}

const isEverything = (s: LabelSelector | undefined): boolean =>
  s === undefined ||
  ((s.matchLabels === undefined || Object.keys(s.matchLabels).length === 0) &&
    (s.matchExpressions ?? []).length === 0);

const labelsOf = (obj: KubeObject | null): Labels => obj?.metadata?.labels ?? {};

/** namespace.Matcher.MatchNamespaceSelector. */
async function namespaceMatches(m: MatchResources, a: Attributes, env: MatchEnvironment): Promise<boolean> {
  if (isEverything(m.namespaceSelector)) return true;
  const isNamespace = a.resource.group === '' && a.resource.resource === 'namespaces';
  // A cluster-scoped object is in no namespace for the selector to refuse.
  if (a.namespace === '' && !isNamespace) return true;
  if (isNamespace && a.subresource === '') {
    const obj = a.object ?? a.oldObject;
    return selectorMatches(m.namespaceSelector, labelsOf(obj));
  }
  const labels = await env.namespaceLabels(a.namespace);
  if (labels === undefined) return false;
  return selectorMatches(m.namespaceSelector, labels);
}

/** object.Matcher.MatchObjectSelector: the new or the old object's labels. */
function objectMatches(m: MatchResources, a: Attributes): boolean {
  if (isEverything(m.objectSelector)) return true;
  const matchesOne = (obj: KubeObject | null): boolean =>
    obj !== null && selectorMatches(m.objectSelector, labelsOf(obj));
  return matchesOne(a.object) || matchesOne(a.oldObject);
}

function rulesMatch(
  m: { rules: readonly NamedRuleWithOperations[]; matchPolicy: string | undefined },
  a: Attributes,
  env: MatchEnvironment,
): boolean {
  const { rules, matchPolicy } = m;
  if (rules.some((r) => ruleMatches(r, a))) return true;
  if (matchPolicy === 'Exact') return false;
  return env
    .equivalentResources(a.resource)
    .some((resource) => rules.some((r) => ruleMatches(r, a, resource)));
}

/** matching.Matcher.Matches; throws MatchConfigError for a selector that cannot be parsed. */
export async function matchesResources(
  m: MatchResources | undefined,
  a: Attributes,
  env: MatchEnvironment,
): Promise<boolean> {
  if (m === undefined) return true;
  if (!objectMatches(m, a)) return false;
  if (rulesMatch({ rules: m.excludeResourceRules ?? [], matchPolicy: m.matchPolicy }, a, env)) return false;
  const rules = m.resourceRules ?? [];
  if (rules.length > 0 && !rulesMatch({ rules, matchPolicy: m.matchPolicy }, a, env)) return false;
  return namespaceMatches(m, a, env);
}
