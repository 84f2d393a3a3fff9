// The rule arithmetic of RBAC's escalation check (validation/policy_comparator.go Covers,
// validation/policy_compact.go, rbacv1helpers.CompactString): which wanted rules the held ones do
// not cover, and ConfirmNoEscalation's refusal message listing them compacted and sorted.
import type { PolicyRule } from '../../api/rbac/v1/rbac.js';
import { compareGoStrings, goQuote } from '../../machinery/validation/index.js';
import type { UserInfo } from '../rest/context.js';
import { aggregateErrors } from './authorizer.js';

// --- Covers (policy_comparator.go) ---

/** One rule as single-verb, single-resource, single-name rules (and single-URL ones). */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  const names = rule.resourceNames ?? [];
  for (const group of rule.apiGroups ?? [])
    for (const resource of rule.resources ?? [])
      for (const verb of rule.verbs ?? []) {
        if (names.length === 0) out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        else
          for (const name of names)
            out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
      }
  for (const url of rule.nonResourceURLs ?? [])
    for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

const has = (set: readonly string[] | undefined, value: string): boolean => set?.includes(value) ?? false;
const hasAll = (set: readonly string[] | undefined, values: readonly string[] | undefined): boolean =>
  (values ?? []).every((v) => has(set, v));

/** `*`, every resource, or `*\/sub` for each subresource. */
function resourcesCoverAll(
  owner: readonly string[] | undefined,
  wanted: readonly string[] | undefined,
): boolean {
  if (has(owner, '*') || hasAll(owner, wanted)) return true;
  return (wanted ?? []).every((path) => {
    if (has(owner, path)) return true;
    const slash = path.indexOf('/');
    return slash >= 0 && has(owner, `*/${path.slice(slash + 1)}`);
  });
}

const urlCovers = (owner: string, path: string): boolean =>
  owner === path || (owner.endsWith('*') && path.startsWith(owner.replace(/\*+$/, '')));

function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const ownerNames = owner.resourceNames ?? [];
  const subNames = sub.resourceNames ?? [];
  return (
    (has(owner.verbs, '*') || hasAll(owner.verbs, sub.verbs)) &&
    (has(owner.apiGroups, '*') || hasAll(owner.apiGroups, sub.apiGroups)) &&
    resourcesCoverAll(owner.resources, sub.resources) &&
    (sub.nonResourceURLs ?? []).every((path) =>
      (owner.nonResourceURLs ?? []).some((o) => urlCovers(o, path)),
    ) &&
    (ownerNames.length === 0 || (subNames.length > 0 && hasAll(ownerNames, subNames)))
  );
}

/** The broken-down rules of `servant` that no rule of `owner` covers (none: `owner` covers it). */
export function uncoveredRules(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): PolicyRule[] {
  return servant.flatMap(breakdownRule).filter((sub) => !owner.some((o) => ruleCovers(o, sub)));
}

// --- the message (policy_compact.go, rbacv1helpers.CompactString) ---

const simpleKey = (rule: PolicyRule): string | undefined => {
  const names = rule.resourceNames ?? [];
  if (names.length > 1 || (rule.nonResourceURLs ?? []).length > 0) return undefined;
  if (rule.apiGroups?.length !== 1 || rule.resources?.length !== 1) return undefined;
  return JSON.stringify([rule.apiGroups[0], rule.resources[0], names.length > 0, names[0] ?? '']);
};

/** Single-group, single-resource rules that differ only by verb become one rule. */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const key = simpleKey(rule);
    const existing = key === undefined ? undefined : simple.get(key);
    if (key === undefined) out.push(rule);
    else if (existing === undefined) simple.set(key, { ...rule, verbs: [...(rule.verbs ?? [])] });
    else existing.verbs = [...(existing.verbs ?? []), ...(rule.verbs ?? [])];
  }
  return [...out, ...simple.values()];
}

/** Go's %q of a []string: `["a" "b"]`. */
const goQuoteList = (list: readonly string[]): string => `[${list.map(goQuote).join(' ')}]`;

/** `{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`, the fields that are set. */
export function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  const field = (name: string, list: readonly string[] | undefined): void => {
    if (list !== undefined && list.length > 0) parts.push(`${name}:${goQuoteList(list)}`);
  };
  field('APIGroups', rule.apiGroups);
  field('Resources', rule.resources);
  field('NonResourceURLs', rule.nonResourceURLs);
  field('ResourceNames', rule.resourceNames);
  field('Verbs', rule.verbs);
  return `{${parts.join(', ')}}`;
}

/**
 * ConfirmNoEscalation's refusal, or undefined when `held` covers `wanted`. `errors` are the rule
 * resolution errors met gathering `held`.
 */
export function escalationMessage(
  user: UserInfo,
  rules: {
    readonly held: readonly PolicyRule[];
    readonly wanted: readonly PolicyRule[];
    readonly errors: readonly string[];
  },
): string | undefined {
  const missing = uncoveredRules(rules.held, rules.wanted);
  if (missing.length === 0) return undefined;
  const lines = [...new Set(compactRules(missing).map(compactString))].sort(compareGoStrings);
  let msg = `user ${goQuote(user.name)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  if (rules.errors.length > 0) msg += `; resolution errors: [${aggregateErrors(rules.errors)}]`;
  return msg;
}
