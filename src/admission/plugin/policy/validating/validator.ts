// One policy evaluated for one binding and one param (k8s.io/apiserver/pkg/admission/plugin/policy/
// validating/validator.go, with plugin/cel/filter.go's error texts and the match conditions of
// plugin/webhook/matchconditions): the match conditions first, then the validations, then every
// messageExpression, each validation to a decision, then the audit annotations. Each of those is a
// phase with its own variables, evaluated on first read (composition.ts). A failing expression is
// an error decision that denies under failurePolicy Fail and admits under Ignore. Each evaluation
// is held to kube's per-call cost limit (an error of its expression); the match conditions share
// RuntimeCELCostBudgetMatchConditions, the validations RuntimeCELCostBudget and the messages what
// the validations left of it, the audit annotations another; past a budget the policy's one
// decision is that error (a message's, each decision's).
import type { CelInput } from '@bufbuild/cel';
import { celGoErrorText } from '../../../../registry/apiextensions/customresource/cel/error-text.js';
import type { CelLibrary } from '../../../../registry/apiextensions/customresource/cel/load.js';
import {
  matchConditionsCostBudget,
  outOfBudget,
  runtimeCostBudget,
} from '../../../../registry/apiextensions/customresource/cel/runtime-cost.js';
import type { CompiledExpression, CompiledPolicy } from './compiled-policy.js';
import { CompositionCost, lazyVariables } from './composition.js';

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

/**
 * The expressions of one phase (one of kube's ForInput calls): their bindings, whose variables are
 * evaluated on first read and kept for the phase, what those cost, and the budget they share.
 */
interface Phase {
  readonly bindings: Record<string, CelInput>;
  readonly composition: CompositionCost;
  readonly budget: Budget;
}

/** Thrown when an evaluation's cost passes its phase's budget: no further expression runs. */
class OutOfBudget extends Error {}

const maxMessageBytes = 5 * 1024;

function phaseOf(
  lib: CelLibrary,
  policy: CompiledPolicy,
  opts: { activation: Activation; budget: number },
): Phase {
  const bindings: Record<string, CelInput> = { ...opts.activation };
  const composition = new CompositionCost();
  bindings['variables'] = lazyVariables(lib, policy.variables, { bindings, cost: composition });
  return { bindings, composition, budget: { remaining: opts.budget } };
}

/** Takes `cost` from the phase's budget; past it, no further expression runs. */
function charge(phase: Phase, cost: number): void {
  if (cost > phase.budget.remaining) throw new OutOfBudget(outOfBudget);
  phase.budget.remaining -= cost;
}

/** activation.Evaluate: the variables the expression read are charged first, then the expression. */
function run(lib: CelLibrary, e: CompiledExpression, phase: Phase): Outcome {
  if (e.program === undefined) return { error: `compilation error: ${e.error ?? 'unknown'}` };
  const failed = (message: string): Outcome => ({
    error: `expression '${e.source}' resulted in error: ${celGoErrorText(message)}`,
  });
  let result: unknown;
  let cost = 0;
  let thrown: string | undefined;
  try {
    ({ value: result, cost } = e.program(phase.bindings));
  } catch (err) {
    thrown = err instanceof Error ? err.message : String(err);
  }
  charge(phase, phase.composition.take());
  if (thrown !== undefined) return failed(thrown);
  charge(phase, cost);
  return lib.cel.isCelError(result) ? failed(result.message) : { value: result };
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

/**
 * Every validation's messageExpression, in a phase of their own on what the validations left of the
 * budget, as kube's message filter evaluates them (for passing validations too). Past the budget,
 * the error every decision that is not already an error becomes.
 */
function messages(
  lib: CelLibrary,
  policy: CompiledPolicy,
  phase: Phase,
): { readonly outcomes: readonly (Outcome | undefined)[] } | { readonly error: string } {
  try {
    return {
      outcomes: policy.validations.map((v) =>
        v.messageExpression === undefined ? undefined : run(lib, v.messageExpression, phase),
      ),
    };
  } catch (err) {
    if (err instanceof OutOfBudget) return { error: `failed messageExpression: ${err.message}` };
    throw err;
  }
}

function messageOf(v: CompiledPolicy['validations'][number], evaluated: Outcome | undefined): string {
  if (evaluated !== undefined && 'value' in evaluated && typeof evaluated.value === 'string') {
    const text = evaluated.value.trim();
    if (text !== '' && !text.includes('\n') && Buffer.byteLength(text) <= maxMessageBytes) return text;
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
  const phase = (budget: number): Phase => phaseOf(lib, policy, { activation: opts.activation, budget });
  try {
    const match = matchConditions(lib, policy, phase(matchConditionsCostBudget));
    if (match.error !== undefined) return { decisions: [onError(match.error)], auditAnnotations: [] };
    if (!match.matches) return { decisions: [], auditAnnotations: [] };
    const validations = phase(runtimeCostBudget);
    const outcomes = policy.validations.map((v) => run(lib, v.expression, validations));
    const messaged = messages(lib, policy, phase(validations.budget.remaining));
    const decisions = policy.validations.map((v, i): PolicyDecision => {
      const out = outcomes[i];
      if (out === undefined || 'error' in out) return onError(out?.error ?? 'no outcome');
      if ('error' in messaged) return onError(messaged.error);
      if (out.value === true) return { action: 'admit', evaluation: 'admit', message: '' };
      return {
        action: 'deny',
        evaluation: 'deny',
        message: messageOf(v, messaged.outcomes[i]),
        reason: v.validation.reason ?? 'Invalid',
      };
    });
    return {
      decisions,
      auditAnnotations: auditAnnotations(lib, policy, {
        phase: phase(runtimeCostBudget),
        failurePolicy: opts.failurePolicy,
      }),
    };
  } catch (err) {
    if (err instanceof OutOfBudget) return { decisions: [onError(err.message)], auditAnnotations: [] };
    throw err;
  }
}
