// cel-go's AST validators in kube's environment (cel/validator.go; kube's base environment since
// 1.29): a literal argument of matches(), duration() or timestamp() that would fail at run time,
// and a list or map literal whose elements, keys or values are of different types (except within
// a format() call's arguments, which mix types by design). check.ts reports these only when the
// expression passes the type check, as cel-go runs its validators after checking.
import { GoRegexp, RegexpSyntaxError } from '../../../../machinery/regexp/go-regexp.js';
import type { CelModule } from './load.js';
import { celTypeName, isOperandKind } from './scalar-operators.js';

type Expr = ReturnType<CelModule['parse']>['expr'];

export interface LiteralIssue {
  readonly offset: number;
  readonly message: string;
}

/** Where a node is in the source, and whether a call of constants fails when evaluated. */
export interface LiteralContext {
  readonly offsetOf: (e: Expr) => number;
  readonly evaluatesToError: (call: Expr) => boolean;
}

/**
 * The issue of a literal pattern or argument: `invalid matches argument` for a pattern that does
 * not compile, `invalid duration argument` and `invalid timestamp argument` for a conversion that
 * fails. A constant find()/findAll() pattern that does not compile is kube's program error instead.
 */
export function literalArgumentIssue(
  ctx: LiteralContext,
  c: { f: string; call: Expr; arg: Expr | undefined },
): LiteralIssue | { programError: string } | undefined {
  const { f, call, arg } = c;
  if (arg?.exprKind.case !== 'constExpr') return undefined;
  const at = { offset: ctx.offsetOf(arg), message: `invalid ${f} argument` };
  if (f === 'duration' || f === 'timestamp') return ctx.evaluatesToError(call) ? at : undefined;
  const constant = arg.exprKind.value.constantKind;
  if (constant.case !== 'stringValue') return undefined;
  try {
    GoRegexp.compile(constant.value);
    return undefined;
  } catch (err) {
    if (!(err instanceof RegexpSyntaxError)) throw err;
    return f === 'matches' ? at : { programError: err.message };
  }
}

/** The first of `items` of a known scalar type other than the first item's. */
function mismatch(
  ctx: LiteralContext,
  items: readonly { readonly expr: Expr; readonly kind: string }[],
): LiteralIssue | undefined {
  const [first, ...rest] = items;
  if (first === undefined || !known(first.kind)) return undefined;
  const other = rest.find((x) => known(x.kind) && x.kind !== first.kind);
  if (other === undefined) return undefined;
  return {
    offset: ctx.offsetOf(other.expr),
    message: `expected type '${typeName(first.kind)}' but found '${typeName(other.kind)}'`,
  };
}

/**
 * cel-go's homogeneous aggregate literal validator over a list's elements or a map's keys and
 * values, by the kinds the type check inferred. Only scalars of known kinds are compared: where
 * Capstan infers no type, cel-go may know one, and nothing is reported.
 */
export function homogeneousIssues(
  ctx: LiteralContext,
  groups: readonly (readonly { readonly expr: Expr; readonly kind: string }[])[],
): LiteralIssue[] {
  const out: LiteralIssue[] = [];
  for (const items of groups) {
    const issue = mismatch(ctx, items);
    if (issue !== undefined) out.push(issue);
  }
  return out;
}

const known = (kind: string): boolean => isOperandKind(kind) || kind === 'null';
const typeName = (kind: string): string => (kind === 'null' ? 'null_type' : celTypeName(kind));
