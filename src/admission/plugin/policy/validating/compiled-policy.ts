// A ValidatingAdmissionPolicy's expressions compiled once per generation (kube's
// validating.compilePolicy): variables in order, each seeing the ones before it, then the match
// conditions, validations with their message expressions, and audit annotations. object,
// oldObject and params are dynamic here, as in kube's runtime environment; a compile error stays
// with its expression and fails it when it runs (the policy's failurePolicy decides).
import type {
  ValidatingAdmissionPolicy,
  Validation,
} from '../../../../api/admissionregistration/v1/policy.js';
import type { CelT } from '../../../../registry/apiextensions/customresource/cel/check.js';
import type { CelLibrary } from '../../../../registry/apiextensions/customresource/cel/load.js';
import {
  compileCel,
  policyScope,
  type ExpectedType,
  type Program,
} from '../../../../registry/admissionregistration/policy-cel.js';

export interface CompiledExpression {
  readonly source: string;
  readonly program?: Program;
  /** Why it does not compile, in kube's words. */
  readonly error?: string;
}

export interface CompiledValidation {
  readonly validation: Validation;
  readonly expression: CompiledExpression;
  readonly messageExpression?: CompiledExpression;
}

export interface CompiledPolicy {
  readonly uid: string;
  readonly generation: number;
  readonly variables: readonly { readonly name: string; readonly expression: CompiledExpression }[];
  readonly matchConditions: readonly { readonly name: string; readonly expression: CompiledExpression }[];
  readonly validations: readonly CompiledValidation[];
  readonly auditAnnotations: readonly { readonly key: string; readonly expression: CompiledExpression }[];
}

const dyn: CelT = { kind: 'dyn' };

function compileOne(
  lib: CelLibrary,
  source: string,
  opts: { scope: ReadonlyMap<string, CelT>; returns: ExpectedType },
): CompiledExpression {
  const { scope, returns } = opts;
  const out = compileCel(lib, { source, scope, returns });
  return out.ok ? { source, program: out.program } : { source, error: out.error };
}

/** Compiles every expression of the policy. */
export function compilePolicy(lib: CelLibrary, policy: ValidatingAdmissionPolicy): CompiledPolicy {
  const spec = policy.spec ?? {};
  const types = { object: dyn, params: dyn, request: dyn, namespaceObject: dyn };
  const names: string[] = [];
  const variables = (spec.variables ?? []).map((v) => {
    const expression = compileOne(lib, v.expression, {
      scope: policyScope(policy, types, names),
      returns: 'dyn',
    });
    names.push(v.name);
    return { name: v.name, expression };
  });
  const scope = policyScope(policy, types, names);
  return {
    uid: policy.metadata?.uid ?? '',
    generation: policy.metadata?.generation ?? 0,
    variables,
    matchConditions: (spec.matchConditions ?? []).map((c) => ({
      name: c.name,
      expression: compileOne(lib, c.expression, { scope: scope, returns: 'bool' }),
    })),
    validations: (spec.validations ?? []).map((validation) => {
      const messageSource = (validation.messageExpression ?? '').trim();
      return {
        validation,
        expression: compileOne(lib, validation.expression, { scope: scope, returns: 'bool' }),
        ...(messageSource === ''
          ? {}
          : {
              messageExpression: compileOne(lib, validation.messageExpression ?? '', {
                scope: scope,
                returns: 'string',
              }),
            }),
      };
    }),
    auditAnnotations: (spec.auditAnnotations ?? []).map((a) => ({
      key: a.key,
      expression: compileOne(lib, a.valueExpression, { scope: scope, returns: 'dyn' }),
    })),
  };
}
