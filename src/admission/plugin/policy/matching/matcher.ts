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

const sameResource = (x: GroupVersionResource, y: GroupVersionResource): boolean =>
  x.group === y.group && x.version === y.version && x.resource === y.resource;

/** The request's equivalent resources but its own: the request's mapper's, else the environment's. */
function equivalentsOf(a: Attributes, env: MatchEnvironment): readonly GroupVersionResource[] {
  const all =
    a.equivalents?.equivalentResourcesFor(a.resource, a.subresource) ?? env.equivalentResources(a.resource);
  return all.filter((r) => !sameResource(r, a.resource));
}

/**
 * The resource a rule covers: the request's own, or under matchPolicy Equivalent the first
 * equivalent one an earlier rule covers; undefined when none does.
 */
function matchingResource(
  m: { rules: readonly NamedRuleWithOperations[]; matchPolicy: string | undefined },
  a: Attributes,
  env: MatchEnvironment,
): GroupVersionResource | undefined {
  const { rules, matchPolicy } = m;
  if (rules.some((r) => ruleMatches(r, a))) return a.resource;
  if (matchPolicy === 'Exact') return undefined;
  const equivalents = equivalentsOf(a, env);
  for (const rule of rules)
    for (const resource of equivalents) if (ruleMatches(rule, a, resource)) return resource;
  return undefined;
}

const rulesMatch = (
  m: { rules: readonly NamedRuleWithOperations[]; matchPolicy: string | undefined },
  a: Attributes,
  env: MatchEnvironment,
): boolean => matchingResource(m, a, env) !== undefined;

/**
 * matching.Matcher.Matches with the resource it matched (the request's, or an equivalent one);
 * undefined when it does not match. Throws MatchConfigError for a selector that cannot be parsed.
 */
export async function matchedResource(
  m: MatchResources | undefined,
  a: Attributes,
  env: MatchEnvironment,
): Promise<GroupVersionResource | undefined> {
  if (m === undefined) return a.resource;
  if (!objectMatches(m, a)) return undefined;
  if (rulesMatch({ rules: m.excludeResourceRules ?? [], matchPolicy: m.matchPolicy }, a, env))
    return undefined;
  const rules = m.resourceRules ?? [];
  const resource =
    rules.length === 0 ? a.resource : matchingResource({ rules, matchPolicy: m.matchPolicy }, a, env);
  if (resource === undefined) return undefined;
  return (await namespaceMatches(m, a, env)) ? resource : undefined;
}

/** Whether matchResources take the request. */
export async function matchesResources(
  m: MatchResources | undefined,
  a: Attributes,
  env: MatchEnvironment,
): Promise<boolean> {
  return (await matchedResource(m, a, env)) !== undefined;
}
