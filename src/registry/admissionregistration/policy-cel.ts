// One CEL expression of an admission policy compiled against declared variables
// (k8s.io/apiserver/pkg/admission/plugin/cel/compile.go, CompileCELExpression), with the CRD
// rules' library and static checker: parse, check, then plan. Errors read as cel-go's issues.
// The policy validation and the ValidatingAdmissionPolicy admission plugin both compile with it.
import type { ValidatingAdmissionPolicy } from '../../api/admissionregistration/v1/policy.js';
import { checkExprIn, mayBe, type CelT } from '../apiextensions/customresource/cel/check.js';
import type { CelLibrary } from '../apiextensions/customresource/cel/load.js';
import type { MeteredProgram } from '../apiextensions/customresource/cel/metering.js';
import { formatIssue, syntaxIssue } from '../apiextensions/customresource/cel/rule-errors.js';

/** A program whose evaluations are held to kube's per-call cost limit and report their cost. */
export type Program = MeteredProgram;

/** What an expression must evaluate to: kube's ReturnTypes (`dyn` takes anything). */
export type ExpectedType = 'bool' | 'string' | 'dyn';

export type CompileResult =
  | { readonly ok: true; readonly program: Program; readonly type: CelT }
  | { readonly ok: false; readonly error: string };

/** Parses and checks one expression; `error` is kube's text (`compilation failed: ERROR: …`). */
export function compileCel(
  lib: CelLibrary,
  opts: { source: string; scope: ReadonlyMap<string, CelT>; returns: ExpectedType },
): CompileResult {
  const issues = checkIssues(lib, opts.source, opts.scope);
  if (typeof issues === 'string') return { ok: false, error: `compilation failed: ${issues}` };
  const { parsed, type } = issues;
  if (opts.returns !== 'dyn' && !mayBe(type, opts.returns))
    return { ok: false, error: `must evaluate to ${opts.returns}` };
  return { ok: true, program: lib.plan(parsed), type };
}

/** The issues of an expression as cel-go prints them, or its parse and inferred type. */
export function checkIssues(
  lib: CelLibrary,
  source: string,
  scope: ReadonlyMap<string, CelT>,
): string | { parsed: ReturnType<CelLibrary['cel']['parse']>; type: CelT } {
  let parsed: ReturnType<CelLibrary['parse']>;
  try {
    parsed = lib.parse(source);
  } catch (err) {
    return formatIssue(source, syntaxIssue(err));
  }
  const checked = checkExprIn(parsed, {
    scope,
    functions: lib.checkFunctions,
  });
  if (checked.issues.length > 0) return checked.issues.map((i) => formatIssue(source, i)).join('\n');
  return { parsed, type: checked.type };
}

const dyn: CelT = { kind: 'dyn' };

/** The variables every policy expression may name; `params` only with a paramKind. */
export function policyScope(
  policy: ValidatingAdmissionPolicy,
  types: { object: CelT; params: CelT; request: CelT; namespaceObject: CelT },
  variableNames: readonly string[],
): Map<string, CelT> {
  const scope = new Map<string, CelT>([
    ['object', types.object],
    ['oldObject', types.object],
    ['request', types.request],
    ['namespaceObject', types.namespaceObject],
    ['authorizer', dyn],
    [
      'variables',
      {
        kind: 'schema',
        schema: { type: 'object', properties: Object.fromEntries(variableNames.map((n) => [n, {}])) },
      },
    ],
  ]);
  if (policy.spec?.paramKind !== undefined) scope.set('params', types.params);
  return scope;
}
