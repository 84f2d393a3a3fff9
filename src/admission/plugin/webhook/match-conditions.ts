// A webhook's matchConditions (k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions/
// matcher.go): CEL expressions over `object`, `oldObject` and `request`, compiled on first use. Any
// false skips the webhook; otherwise an error fails closed (failurePolicy Fail) or skips it (Ignore).
// `authorizer` (kube's authz library) is bound when the server's authorizer is given. Each
// evaluation is held to kube's per-call cost limit, and a webhook's conditions together to
// RuntimeCELCostBudgetMatchConditions: past it, the match fails as an error would.
import type { CelInput } from '@bufbuild/cel';
import type { MatchCondition } from '../../../api/admissionregistration/v1/webhook.js';
import type { KubeObject } from '../../../api/meta.js';
import { celGoErrorText } from '../../../registry/apiextensions/customresource/cel/error-text.js';
import { loadCel, type CelLibrary } from '../../../registry/apiextensions/customresource/cel/load.js';
import type { MeteredProgram } from '../../../registry/apiextensions/customresource/cel/metering.js';
import {
  matchConditionsCostBudget,
  outOfBudget,
} from '../../../registry/apiextensions/customresource/cel/runtime-cost.js';
import type { Authorizer } from '../../../registry/rest/authorizer.js';
import type { Attributes } from '../../attributes.js';
import { toCel } from '../../../registry/apiextensions/customresource/cel/values.js';

type Program = MeteredProgram;

interface CompiledCondition {
  readonly condition: MatchCondition;
  /** The program, or why it did not compile. */
  readonly program: Program | string;
}

/** `evaluationErrors`: how many conditions failed to evaluate (compile or run), for the metrics. */
export type MatchResult = { readonly evaluationErrors: number } & (
  | { readonly matches: true }
  | { readonly matches: false; readonly failedCondition?: string }
  | { readonly matches: false; readonly error: string }
);

const matched: MatchResult = { matches: true, evaluationErrors: 0 };

export interface MatchInput {
  readonly object: KubeObject | null;
  readonly oldObject: KubeObject | null;
  /** The AdmissionRequest as the webhook would receive it (admission.k8s.io/v1). */
  readonly request: Record<string, unknown>;
  /** Answers `authorizer` checks as the request's user. */
  readonly authz?: { readonly authorizer: Authorizer; readonly attributes: Attributes };
}

function compile(lib: CelLibrary, condition: MatchCondition): CompiledCondition {
  try {
    return { condition, program: lib.plan(lib.parse(condition.expression)) };
  } catch (err) {
    return { condition, program: err instanceof Error ? err.message : String(err) };
  }
}

function evaluationError(lib: CelLibrary, expression: string, result: unknown): string {
  const detail = lib.cel.isCelError(result) ? celGoErrorText(result.message) : 'no such overload';
  return `expression '${expression}' resulted in error: ${detail}`;
}

/** The compiled conditions of one webhook; compiles when first asked. */
export class MatchConditionMatcher {
  readonly #conditions: readonly MatchCondition[];
  readonly #failurePolicy: 'Fail' | 'Ignore';
  #compiled: Promise<{ lib: CelLibrary; conditions: CompiledCondition[] }> | undefined;

  constructor(conditions: readonly MatchCondition[], failurePolicy: 'Fail' | 'Ignore') {
    this.#conditions = conditions;
    this.#failurePolicy = failurePolicy;
  }

  get empty(): boolean {
    return this.#conditions.length === 0;
  }

  async #programs(): Promise<{ lib: CelLibrary; conditions: CompiledCondition[] }> {
    this.#compiled ??= loadCel().then((lib) => ({
      lib,
      conditions: this.#conditions.map((c) => compile(lib, c)),
    }));
    return this.#compiled;
  }

  async match(input: MatchInput): Promise<MatchResult> {
    if (this.empty) return matched;
    const { lib, conditions } = await this.#programs();
    const bindings: Record<string, CelInput> = {
      object: toCel(input.object, undefined),
      oldObject: toCel(input.oldObject, undefined),
      request: toCel(input.request, undefined),
    };
    const authz = input.authz;
    if (authz === undefined) return this.#evaluate(lib, { conditions, bindings });
    const a = authz.attributes;
    const requestResource = {
      group: a.resource.group,
      resource: a.resource.resource,
      subresource: a.subresource,
      namespace: a.namespace,
      name: a.name,
    };
    return lib.authz.withSession(
      { authorizer: authz.authorizer, user: a.userInfo, requestResource },
      (session) =>
        session.evaluate(() =>
          this.#evaluate(lib, { conditions, bindings: { ...bindings, authorizer: session.variable } }),
        ),
    );
  }

  #evaluate(
    lib: CelLibrary,
    r: { conditions: readonly CompiledCondition[]; bindings: Record<string, CelInput> },
  ): MatchResult {
    const { conditions, bindings } = r;
    const errors: string[] = [];
    let remaining = matchConditionsCostBudget;
    for (const { condition, program } of conditions) {
      if (typeof program === 'string') {
        errors.push(`compilation error: ${program}`);
        continue;
      }
      let result: unknown;
      try {
        const out = program(bindings);
        // Past the budget the whole evaluation fails: not one condition's error (kube's ForInput).
        if (out.cost > remaining) return this.#failed([outOfBudget], errors.length);
        remaining -= out.cost;
        result = out.value;
      } catch (err) {
        result = lib.cel.celError(err instanceof Error ? err.message : String(err));
      }
      if (result === false)
        return { matches: false, failedCondition: condition.name, evaluationErrors: errors.length };
      if (result !== true) errors.push(evaluationError(lib, condition.expression, result));
    }
    if (errors.length === 0) return matched;
    return this.#failed(errors, errors.length);
  }

  /** Some conditions failed and none was false: the failure policy decides. */
  #failed(errors: readonly string[], evaluationErrors: number): MatchResult {
    if (this.#failurePolicy === 'Ignore') return { matches: false, evaluationErrors };
    // utilerrors.NewAggregate's text: one error as it is, several in brackets.
    const error = errors.length === 1 ? (errors[0] ?? '') : `[${errors.join(', ')}]`;
    return { matches: false, error, evaluationErrors };
  }
}
