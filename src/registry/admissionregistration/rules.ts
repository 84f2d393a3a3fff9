// Rules and match conditions shared by webhooks and policies (pkg/apis/admissionregistration/
// validation/validation.go: validateRule, validateResources, validateRuleWithOperations,
// validateMatchConditions). CEL expressions are required but not compiled.
import type { MatchCondition, Rule, RuleWithOperations } from '../../api/admissionregistration/v1/webhook.js';
import {
  FieldError,
  isQualifiedName,
  type ErrorList,
  type FieldPath,
} from '../../machinery/validation/index.js';

const hasWildcard = (values: readonly string[]): boolean => values.includes('*');

/** validateResources: subresource rules with their "*" combinations. */
function validateResources(resources: readonly string[], path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  if (resources.length === 0) errs.push(FieldError.required(path, ''));
  const withWildcardSub = new Set<string>();
  const subWithWildcardRes = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSubresource = false;
  for (const [i, resSub] of resources.entries()) {
    if (resSub === '') {
      errs.push(FieldError.required(path.index(i), ''));
      continue;
    }
    if (resSub === '*/*') doubleWildcard = true;
    if (resSub === '*') singleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      withoutSubresource = resSub !== '*';
      continue;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (withWildcardSub.has(res))
      errs.push(
        FieldError.invalid(path.index(i), resSub, `if '${res}/*' is present, must not specify ${resSub}`),
      );
    if (subWithWildcardRes.has(sub))
      errs.push(
        FieldError.invalid(path.index(i), resSub, `if '*/${sub}' is present, must not specify ${resSub}`),
      );
    if (sub === '*') withWildcardSub.add(res);
    if (res === '*') subWithWildcardRes.add(sub);
  }
  if (resources.length > 1 && doubleWildcard)
    errs.push(FieldError.invalid(path, resources, "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && withoutSubresource)
    errs.push(
      FieldError.invalid(
        path,
        resources,
        "if '*' is present, must not specify other resources without subresources",
      ),
    );
  return errs;
}

export const validScopes = ['*', 'Cluster', 'Namespaced'];

/** validateRule (subresources allowed). */
export function validateRule(rule: Rule, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const groups = rule.apiGroups ?? [];
  if (groups.length === 0) errs.push(FieldError.required(path.child('apiGroups'), ''));
  if (groups.length > 1 && hasWildcard(groups))
    errs.push(
      FieldError.invalid(
        path.child('apiGroups'),
        groups,
        "if '*' is present, must not specify other API groups",
      ),
    );
  const versions = rule.apiVersions ?? [];
  if (versions.length === 0) errs.push(FieldError.required(path.child('apiVersions'), ''));
  if (versions.length > 1 && hasWildcard(versions))
    errs.push(
      FieldError.invalid(
        path.child('apiVersions'),
        versions,
        "if '*' is present, must not specify other API versions",
      ),
    );
  versions.forEach((v, i) => {
    if (v === '') errs.push(FieldError.required(path.child('apiVersions').index(i), ''));
  });
  errs.push(...validateResources(rule.resources ?? [], path.child('resources')));
  if (rule.scope !== undefined && !validScopes.includes(rule.scope))
    errs.push(FieldError.notSupported(path.child('scope'), rule.scope, validScopes));
  return errs;
}

export const supportedOperations = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];

/** validateRuleWithOperations. */
export function validateRuleWithOperations(rule: RuleWithOperations, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const ops = rule.operations ?? [];
  if (ops.length === 0) errs.push(FieldError.required(path.child('operations'), ''));
  if (ops.length > 1 && hasWildcard(ops))
    errs.push(
      FieldError.invalid(
        path.child('operations'),
        ops,
        "if '*' is present, must not specify other operations",
      ),
    );
  ops.forEach((op, i) => {
    if (!supportedOperations.includes(op))
      errs.push(FieldError.notSupported(path.child('operations').index(i), op, supportedOperations));
  });
  return [...errs, ...validateRule(rule, path)];
}

/** validateMatchConditions: at most 64, named with unique qualified names, with an expression. */
export function validateMatchConditions(conditions: readonly MatchCondition[], path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  if (conditions.length > 64) errs.push(FieldError.tooMany(path, conditions.length, 64));
  const names = new Set<string>();
  conditions.forEach((c, i) => {
    const at = path.index(i);
    const expression = c.expression as string | undefined;
    if ((expression ?? '').trim() === '') errs.push(FieldError.required(at.child('expression'), ''));
    const name = (c.name as string | undefined) ?? '';
    if (name === '') errs.push(FieldError.required(at.child('name'), ''));
    else for (const msg of isQualifiedName(name)) errs.push(FieldError.invalid(at.child('name'), name, msg));
    if (name !== '') {
      if (names.has(name)) errs.push(FieldError.duplicate(at.child('name'), name));
      else names.add(name);
    }
  });
  return errs;
}

/** v1 SetDefaults_Rule: scope "*". */
export function defaultRule(rule: Rule): void {
  rule.scope ??= '*';
}
