// One policy evaluated for one binding and one param (k8s.io/apiserver/pkg/admission/plugin/policy/
// validating/validator.go, with plugin/cel/filter.go's error texts and the match conditions of
// plugin/webhook/matchconditions): the match conditions first, then each validation to a decision,
// then the audit annotations. A failing expression is an error decision that denies under
// failurePolicy Fail and admits under Ignore.
import type { CelInput } from '@bufbuild/cel';
import type { CelLibrary } from '../../../../registry/apiextensions/customresource/cel/load.js';
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

const maxMessageBytes = 5 * 1024;

function errorText(message: string): string {
  if (message.startsWith('found no matching overload')) return 'no such overload';
  const noKey = /^field not found: (.*)$/.exec(message);
  return noKey === null ? message : `no such key: ${noKey[1] ?? ''}`;
}

function run(lib: CelLibrary, e: CompiledExpression, bindings: Record<string, CelInput>): Outcome {
  if (e.program === undefined) return { error: `compilation error: ${e.error ?? 'unknown'}` };
  const failed = (message: string): Outcome => ({
    error: `expression '${e.source}' resulted in error: ${errorText(message)}`,
  });
  let result: unknown;
  try {
    result = e.program(bindings);
  } catch (err) {
    return failed(err instanceof Error ? err.message : String(err));
  }
  return lib.cel.isCelError(result) ? failed(result.message) : { value: result };
}

/** Evaluates the variables in order into the map the other expressions read as `variables`. */
function bindingsOf(lib: CelLibrary, policy: CompiledPolicy, a: Activation): Record<string, CelInput> {
  const variables = new Map<string, CelInput>();
  const bindings: Record<string, CelInput> = { ...a, variables };
  for (const v of policy.variables) {
    const out = run(lib, v.expression, bindings);
    // A variable that fails is left out: the expressions reading it fail with no such key.
    if ('value' in out) variables.set(v.name, out.value as CelInput);
  }
  return bindings;
}

/** matchconditions.Matcher.Match: false ends it; errors count only when no condition is false. */
function matchConditions(
  lib: CelLibrary,
  policy: CompiledPolicy,
  bindings: Record<string, CelInput>,
): { matches: boolean; error?: string } {
  const errors: string[] = [];
  for (const c of policy.matchConditions) {
    const out = run(lib, c.expression, bindings);
    if ('error' in out) errors.push(out.error);
    else if (out.value === false) return { matches: false };
  }
  if (errors.length === 0) return { matches: true };
  return { matches: false, error: errors.length === 1 ? (errors[0] ?? '') : `[${errors.join(', ')}]` };
}

function messageOf(
  lib: CelLibrary,
  v: CompiledPolicy['validations'][number],
  bindings: Record<string, CelInput>,
): string {
  if (v.messageExpression !== undefined) {
    const out = run(lib, v.messageExpression, bindings);
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
  opts: { bindings: Record<string, CelInput>; failurePolicy: FailurePolicy },
): AuditAnnotationResult[] {
  const { bindings, failurePolicy } = opts;
  return policy.auditAnnotations.map(({ key, expression }) => {
    const out = run(lib, expression, bindings);
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
  const bindings = bindingsOf(lib, policy, opts.activation);
  const match = matchConditions(lib, policy, bindings);
  if (match.error !== undefined) return { decisions: [onError(match.error)], auditAnnotations: [] };
  if (!match.matches) return { decisions: [], auditAnnotations: [] };
  const decisions = policy.validations.map((v): PolicyDecision => {
    const out = run(lib, v.expression, bindings);
    if ('error' in out) return onError(out.error);
    if (out.value === true) return { action: 'admit', evaluation: 'admit', message: '' };
    return {
      action: 'deny',
      evaluation: 'deny',
      message: messageOf(lib, v, bindings),
      reason: v.validation.reason ?? 'Invalid',
    };
  });
  return {
    decisions,
    auditAnnotations: auditAnnotations(lib, policy, { bindings, failurePolicy: opts.failurePolicy }),
  };
}
