// One policy evaluated for one binding and one param (k8s.io/apiserver/pkg/admission/plugin/policy/
// validating/validator.go, with plugin/cel/filter.go's error texts and the match conditions of
// plugin/webhook/matchconditions): the match conditions first, then each validation to a decision,
// then the audit annotations. A failing expression is an error decision that denies under
// failurePolicy Fail and admits under Ignore. Each evaluation is held to kube's per-call cost limit
// (an error of its expression); the match conditions share RuntimeCELCostBudgetMatchConditions, the
// variables, validations and messages RuntimeCELCostBudget, the audit annotations another; past a
// budget the policy's one decision is that error.
import type { CelInput } from '@bufbuild/cel';
import type { CelLibrary } from '../../../../registry/apiextensions/customresource/cel/load.js';
import {
  matchConditionsCostBudget,
  outOfBudget,
  runtimeCostBudget,
} from '../../../../registry/apiextensions/customresource/cel/runtime-cost.js';
import type { CompiledExpression, CompiledPolicy } from './compiled-policy.js';

export type FailurePolicy = 'Fail' | 'Ignore';

export interface PolicyDecision {
  readonly action: 'admit' | 'deny';
  readonly evaluation: 'admit' | 'deny' | 'error';
  readonly message: string;
  /** The validation's reason (Invalid when it has none); undefined for errors. */
  readonly reason?: string;
}

export interface AuditAnnotationResult {
  readonly key: string;
  readonly action: 'publish' | 'exclude' | 'error';
  readonly value?: string;
  readonly error?: string;
}

export interface ValidateResult {
  readonly decisions: readonly PolicyDecision[];
  readonly auditAnnotations: readonly AuditAnnotationResult[];
}

/** The variables of one evaluation, already CEL values. */
export interface Activation {
  readonly object: CelInput;
  readonly oldObject: CelInput;
  readonly request: CelInput;
  readonly params: CelInput;
  readonly namespaceObject: CelInput;
  /** kube's authz library value (authz-library.ts); unbound when no authorizer answers it. */
  readonly authorizer?: CelInput;
}

type Outcome = { readonly value: unknown } | { readonly error: string };

/** What is left of a cost budget the expressions of one phase share. */
interface Budget {
  remaining: number;
}

/** The expressions of one phase, and the budget they share. */
interface Phase {
  readonly bindings: Record<string, CelInput>;
  readonly budget: Budget;
}

/** Thrown when an evaluation's cost passes its phase's budget: no further expression runs. */
class OutOfBudget extends Error {}

const maxMessageBytes = 5 * 1024;

function errorText(message: string): string {
  if (message.startsWith('found no matching overload')) return 'no such overload';
  const noKey = /^field not found: (.*)$/.exec(message);
  return noKey === null ? message : `no such key: ${noKey[1] ?? ''}`;
}

function run(lib: CelLibrary, e: CompiledExpression, phase: Phase): Outcome {
  if (e.program === undefined) return { error: `compilation error: ${e.error ?? 'unknown'}` };
  const failed = (message: string): Outcome => ({
    error: `expression '${e.source}' resulted in error: ${errorText(message)}`,
  });
  let result: unknown;
  let cost: number;
  try {
    ({ value: result, cost } = e.program(phase.bindings));
  } catch (err) {
    return failed(err instanceof Error ? err.message : String(err));
  }
  if (cost > phase.budget.remaining) throw new OutOfBudget(outOfBudget);
  phase.budget.remaining -= cost;
  return lib.cel.isCelError(result) ? failed(result.message) : { value: result };
}

/** Evaluates the variables in order into the map the other expressions read as `variables`. */
function bindingsOf(
  lib: CelLibrary,
  policy: CompiledPolicy,
  a: { activation: Activation; budget: Budget },
): Record<string, CelInput> {
  const variables = new Map<string, CelInput>();
  const bindings: Record<string, CelInput> = { ...a.activation, variables };
  for (const v of policy.variables) {
    const out = run(lib, v.expression, { bindings, budget: a.budget });
    // A variable that fails is left out: the expressions reading it fail with no such key.
    if ('value' in out) variables.set(v.name, out.value as CelInput);
  }
  return bindings;
}

/** matchconditions.Matcher.Match: false ends it; errors count only when no condition is false. */
function matchConditions(
  lib: CelLibrary,
  policy: CompiledPolicy,
  phase: Phase,
): { matches: boolean; error?: string } {
  const errors: string[] = [];
  for (const c of policy.matchConditions) {
    const out = run(lib, c.expression, phase);
    if ('error' in out) errors.push(out.error);
    else if (out.value === false) return { matches: false };
  }
  if (errors.length === 0) return { matches: true };
  return { matches: false, error: errors.length === 1 ? (errors[0] ?? '') : `[${errors.join(', ')}]` };
}

function messageOf(lib: CelLibrary, v: CompiledPolicy['validations'][number], phase: Phase): string {
  if (v.messageExpression !== undefined) {
    const out = run(lib, v.messageExpression, phase);
    if ('value' in out && typeof out.value === 'string') {
      const text = out.value.trim();
      if (text !== '' && !text.includes('\n') && Buffer.byteLength(text) <= maxMessageBytes) return text;
    }
  }
  const message = (v.validation.message ?? '').trim();
  return message !== '' ? message : `failed expression: ${v.validation.expression.trim()}`;
}

function auditAnnotations(
  lib: CelLibrary,
  policy: CompiledPolicy,
  opts: { phase: Phase; failurePolicy: FailurePolicy },
): AuditAnnotationResult[] {
  const { phase, failurePolicy } = opts;
  return policy.auditAnnotations.map(({ key, expression }) => {
    const out = run(lib, expression, phase);
    if ('error' in out)
      return { key, action: failurePolicy === 'Ignore' ? 'exclude' : 'error', error: out.error };
    if (out.value === null) return { key, action: 'exclude' };
    if (typeof out.value !== 'string')
      return {
        key,
        action: 'error',
        error: `valueExpression '${expression.source}' resulted in unsupported return type: ${celTypeName(out.value)}. Return type must be either string or null.`,
      };
    const value = out.value.trim();
    return value === '' ? { key, action: 'exclude' } : { key, action: 'publish', value };
  });
}

function celTypeName(v: unknown): string {
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'double';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'list';
  if (v instanceof Map) return 'map';
  return 'dyn';
}

/** validator.Validate. */
export function validate(
  lib: CelLibrary,
  policy: CompiledPolicy,
  opts: { activation: Activation; failurePolicy: FailurePolicy },
): ValidateResult {
  const onError = (message: string): PolicyDecision => ({
    action: opts.failurePolicy === 'Ignore' ? 'admit' : 'deny',
    evaluation: 'error',
    message,
  });
  try {
    const budget = { remaining: runtimeCostBudget };
    const bindings = bindingsOf(lib, policy, { activation: opts.activation, budget });
    const match = matchConditions(lib, policy, {
      bindings,
      budget: { remaining: matchConditionsCostBudget },
    });
    if (match.error !== undefined) return { decisions: [onError(match.error)], auditAnnotations: [] };
    if (!match.matches) return { decisions: [], auditAnnotations: [] };
    const phase = { bindings, budget };
    const decisions = policy.validations.map((v): PolicyDecision => {
      const out = run(lib, v.expression, phase);
      if ('error' in out) return onError(out.error);
      if (out.value === true) return { action: 'admit', evaluation: 'admit', message: '' };
      return {
        action: 'deny',
        evaluation: 'deny',
        message: messageOf(lib, v, phase),
        reason: v.validation.reason ?? 'Invalid',
      };
    });
    const annotations = { bindings, budget: { remaining: runtimeCostBudget } };
    return {
      decisions,
      auditAnnotations: auditAnnotations(lib, policy, {
        phase: annotations,
        failurePolicy: opts.failurePolicy,
      }),
    };
  } catch (err) {
    if (err instanceof OutOfBudget) return { decisions: [onError(err.message)], auditAnnotations: [] };
    throw err;
  }
}
