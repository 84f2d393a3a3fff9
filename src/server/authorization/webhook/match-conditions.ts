// A webhook's matchConditions (k8s.io/apiserver/pkg/authorization/cel CELMatcher): CEL expressions
// over `request`, the v1 SubjectAccessReviewSpec. Any false skips the webhook; an error (with none
// false) is a failure the webhook's failurePolicy decides; all true calls it.
import type { CelInput } from '@bufbuild/cel';
import { loadCel } from '../../../registry/apiextensions/customresource/cel/load.js';
import type { MeteredProgram } from '../../../registry/apiextensions/customresource/cel/metering.js';
import { toCel } from '../../../registry/apiextensions/customresource/cel/values.js';
import { FieldError, FieldPath, type ErrorList } from '../../../machinery/validation/index.js';
import type { MatchConditions } from './webhook-authorizer.js';
import type { SubjectAccessReviewSpecV1 } from './subject-access-review.js';

/** kube's limit on a webhook's match conditions. */
const maxMatchConditions = 64;

export type CompiledMatchConditions =
  | { readonly ok: true; readonly matches: MatchConditions | undefined }
  | { readonly ok: false; readonly errors: ErrorList };

/** compileMatchConditions: each expression present, once, and compiling; `path` is kube's (authorizers[i]). */
export async function compileMatchConditions(
  expressions: readonly string[],
  path: FieldPath,
): Promise<CompiledMatchConditions> {
  if (expressions.length === 0) return { ok: true, matches: undefined };
  const list = path.child('matchConditions');
  if (expressions.length > maxMatchConditions)
    return { ok: false, errors: [FieldError.tooMany(list, expressions.length, maxMatchConditions)] };
  const lib = await loadCel();
  const errors: ErrorList = [];
  const programs: { expression: string; program: MeteredProgram }[] = [];
  const seen = new Set<string>();
  expressions.forEach((expression, i) => {
    const at = list.index(i).child('expression');
    if (expression.trim() === '') errors.push(FieldError.required(at, ''));
    else if (seen.has(expression)) errors.push(FieldError.duplicate(at, expression));
    else {
      seen.add(expression);
      try {
        programs.push({ expression, program: lib.plan(lib.parse(expression)) });
      } catch (err) {
        errors.push(FieldError.invalid(at, expression, `compilation failed: ${(err as Error).message}`));
      }
    }
  });
  if (errors.length > 0) return { ok: false, errors };
  const matches = (spec: SubjectAccessReviewSpecV1): boolean => {
    const bindings: Record<string, CelInput> = { request: toCel(spec, undefined) };
    const failures: string[] = [];
    for (const { expression, program } of programs) {
      let value: unknown;
      try {
        value = program(bindings).value;
      } catch (err) {
        value = err;
      }
      if (typeof value === 'boolean') {
        if (!value) return false;
        continue;
      }
      failures.push(
        lib.cel.isCelError(value) || value instanceof Error
          ? `cel evaluation error: expression '${expression}' resulted in error: ${(value as Error).message}`
          : `cel evaluation error: expression '${expression}' eval result type should be bool`,
      );
    }
    if (failures.length > 0)
      throw new Error(failures.length === 1 ? failures[0] : `[${failures.join(', ')}]`);
    return true;
  };
  return { ok: true, matches };
}
