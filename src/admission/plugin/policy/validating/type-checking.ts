// Type checking a policy against the kinds it matches (k8s.io/apiserver/pkg/admission/plugin/policy/
// validating/typechecking.go; the status controller of pkg/controller/validatingadmissionpolicystatus
// writes its result): each validation expression and message expression is checked with `object`
// typed by every kind the matchConstraints name exactly (no wildcards) and `params` by the paramKind;
// what fails becomes an expression warning. It never changes how the policy is enforced.
import type {
  ExpressionWarning,
  ValidatingAdmissionPolicy,
} from '../../../../api/admissionregistration/v1/policy.js';
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { schemaType, type CelT } from '../../../../registry/apiextensions/customresource/cel/check.js';
import type { CelLibrary } from '../../../../registry/apiextensions/customresource/cel/load.js';
import { checkIssues, policyScope } from '../../../../registry/admissionregistration/policy-cel.js';

export interface TypedKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly schema: JSONSchemaProps;
}

export interface TypeResolver {
  /** The kinds served for an exact group/version/resource; none when it is not served. */
  kindsFor(gvr: { group: string; version: string; resource: string }): readonly TypedKind[];
  /** The schema of a kind by apiVersion, when known. */
  schemaOf(apiVersion: string, kind: string): JSONSchemaProps | undefined;
}

const maxTypesToCheck = 10;
const dyn: CelT = { kind: 'dyn' };
const gvkString = (k: TypedKind): string => `${k.group}/${k.version}, Kind=${k.kind}`;
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** typesToCheck: the kinds of the exact rules, sorted by group, version and kind. */
function typesToCheck(policy: ValidatingAdmissionPolicy, types: TypeResolver): TypedKind[] {
  const found = new Map<string, TypedKind>();
  for (const rule of policy.spec?.matchConstraints?.resourceRules ?? []) {
    const groups = rule.apiGroups ?? [];
    const versions = rule.apiVersions ?? [];
    if (groups.some((g) => g.includes('*')) || versions.some((v) => v.includes('*'))) continue;
    const resources = (rule.resources ?? []).filter((r) => !/[*/]/.test(r));
    for (const group of [...groups].sort(compare))
      for (const version of [...versions].sort(compare))
        for (const resource of [...resources].sort(compare))
          for (const k of types.kindsFor({ group, version, resource })) {
            found.set(gvkString(k), k);
            if (found.size === maxTypesToCheck) return sortKinds([...found.values()]);
          }
  }
  return sortKinds([...found.values()]);
}

function sortKinds(kinds: TypedKind[]): TypedKind[] {
  return kinds.sort(
    (a, b) => compare(a.group, b.group) || compare(a.version, b.version) || compare(a.kind, b.kind),
  );
}

/** TypeChecker.Check: the warnings of spec.validations[*].expression and messageExpression. */
export function typeCheckPolicy(
  lib: CelLibrary,
  policy: ValidatingAdmissionPolicy,
  types: TypeResolver,
): ExpressionWarning[] {
  const kinds = typesToCheck(policy, types);
  if (kinds.length === 0) return [];
  const paramKind = policy.spec?.paramKind;
  const paramSchema =
    paramKind === undefined ? undefined : types.schemaOf(paramKind.apiVersion ?? '', paramKind.kind ?? '');
  const variableNames = (policy.spec?.variables ?? []).map((v) => v.name);
  const check = (source: string): string => {
    const out: string[] = [];
    for (const k of kinds) {
      const scope = policyScope(
        policy,
        {
          object: schemaType(k.schema),
          params: paramSchema === undefined ? dyn : schemaType(paramSchema),
          request: dyn,
          namespaceObject: dyn,
        },
        variableNames,
      );
      const issues = checkIssues(lib, source, scope);
      if (typeof issues === 'string') out.push(`${gvkString(k)}: ${issues}\n`);
    }
    return out.join('\n');
  };
  const warnings: ExpressionWarning[] = [];
  (policy.spec?.validations ?? []).forEach((v, i) => {
    const expression = check(v.expression);
    if (expression !== '')
      warnings.push({ fieldRef: `spec.validations[${String(i)}].expression`, warning: expression });
    if ((v.messageExpression ?? '') === '') return;
    const message = check(v.messageExpression ?? '');
    if (message !== '')
      warnings.push({ fieldRef: `spec.validations[${String(i)}].messageExpression`, warning: message });
  });
  return warnings;
}
