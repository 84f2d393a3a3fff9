// What cel-go's planner precomputes with OptOptimize, which kube's programs set (interpreter/
// decorators.go, decOptimize): a type conversion of a constant (`double(5)`, `duration('1h')`,
// `timestamp('…')`) is evaluated once, when the program is planned, and a membership test in a list
// of constants (`x in ['a', 'b']`) is a set lookup. Neither is then charged at run time, so the
// metered count (metering.ts) matches cel-go's. A folded value CEL has a literal for becomes that
// literal; any other (a timestamp, a duration, a type) becomes a variable `@constN` bound at each
// evaluation, which costs nothing (cost-charges.ts).
import type * as Cel from '@bufbuild/cel';
import { type ExprBuilder, mapChildren, type Expr } from './expr-builder.js';

type Module = typeof Cel;

/** The prefix of the variables holding folded values. */
export const constantPrefix = '@const';
/** A membership test in a list of constants: charged nothing, as cel-go's set lookup. */
export const constantInName = '@in_const';

// cel-go's overloads.IsTypeConversionFunction.
const conversions = new Set([
  'bool',
  'bytes',
  'double',
  'duration',
  'dyn',
  'int',
  'string',
  'timestamp',
  'type',
  'uint',
]);

/** A constant to cel-go's planner: a literal, a folded value, or a list or map of constants. */
export function isConstant(e: Expr | undefined): boolean {
  const k = e?.exprKind;
  switch (k?.case) {
    case 'constExpr':
      return true;
    case 'identExpr':
      return k.value.name.startsWith(constantPrefix);
    case 'listExpr':
      return k.value.elements.every(isConstant);
    case 'structExpr':
      return (
        k.value.messageName === '' &&
        k.value.entries.every(
          (x) => isConstant(x.value) && (x.keyKind.case !== 'mapKey' || isConstant(x.keyKind.value)),
        )
      );
    case 'callExpr':
    case 'comprehensionExpr':
    case 'selectExpr':
    case undefined:
      return false;
  }
}

export interface Folded {
  readonly expr: Expr;
  /** The folded values bound as variables. */
  readonly constants: Readonly<Record<string, Cel.CelInput>>;
}

/** `expr` with its type conversions of constants evaluated and its constant memberships marked. */
export function foldConstants(cel: Module, opts: { env: Cel.CelEnv; b: ExprBuilder; expr: Expr }): Folded {
  const { env, b } = opts;
  const constants: Record<string, Cel.CelInput> = {};
  const literal = (at: number, v: unknown): Expr | undefined => {
    if (typeof v === 'string') return b.constant(at, { case: 'stringValue', value: v });
    if (typeof v === 'bigint') return b.constant(at, { case: 'int64Value', value: v });
    if (typeof v === 'number') return b.constant(at, { case: 'doubleValue', value: v });
    if (typeof v === 'boolean') return b.constant(at, { case: 'boolValue', value: v });
    if (v === null) return b.constant(at, { case: 'nullValue', value: 0 });
    if (v instanceof Uint8Array) return b.constant(at, { case: 'bytesValue', value: v });
    if (cel.isCelUint(v)) return b.constant(at, { case: 'uint64Value', value: v.value });
    return undefined;
  };
  const walk = (e: Expr): Expr => {
    const kind = mapChildren(e, walk);
    const node: Expr = { ...e, exprKind: kind };
    if (kind.case !== 'callExpr') return node;
    const call = kind.value;
    const [arg, list] = call.args;
    if (
      call.function === '@in' &&
      call.target === undefined &&
      list?.exprKind.case === 'listExpr' &&
      isConstant(list)
    )
      return { ...node, exprKind: { ...kind, value: { ...call, function: constantInName } } };
    if (
      !conversions.has(call.function) ||
      call.target !== undefined ||
      call.args.length !== 1 ||
      !isConstant(arg)
    )
      return node;
    const value = cel.plan(env, node)(constants);
    if (cel.isCelError(value)) return node;
    const at = b.pos(e);
    const folded = literal(at, value);
    if (folded !== undefined) return folded;
    const name = `${constantPrefix}${String(Object.keys(constants).length)}`;
    constants[name] = value;
    return b.ident(at, name);
  };
  return { expr: walk(opts.expr), constants };
}
