// The part of an evaluation's cost that is read from the parsed tree (metering.ts charges the
// calls): what each node costs cel-go's tracker to evaluate, which nodes are evaluated whenever
// their parent is, and the rewrite that makes each conditionally evaluated part charge its nodes
// before it runs: `@charge(n) ? part : false`.
import { constantInName, isConstant } from './constant-folding.js';
import { childrenOf, type ExprBuilder, mapChildren, type Expr } from './expr-builder.js';

/** The function a rewritten tree calls to charge a part's nodes. */
export const chargeName = '@charge';

// Type names are constants to cel-go (no cost), as are folded values and literals of constants.
const typeNames = new Set([
  'bool',
  'bytes',
  'double',
  'int',
  'list',
  'map',
  'null_type',
  'string',
  'type',
  'uint',
]);

/** What evaluating a node once costs, besides what its function charges when it runs. */
function ownCost(e: Expr): number {
  const k = e.exprKind;
  switch (k.case) {
    case 'identExpr':
      return typeNames.has(k.value.name) || isConstant(e) ? 0 : 1;
    case 'selectExpr':
      // kube's environment gives a presence test no cost (PresenceTestHasCost(false)).
      return k.value.testOnly ? 0 : 1;
    case 'listExpr':
      return isConstant(e) ? 0 : 10;
    case 'structExpr':
      return k.value.messageName !== '' ? 40 : isConstant(e) ? 0 : 30;
    case 'callExpr':
      switch (k.value.function) {
        case '_&&_':
        case '_||_':
        case '_?_:_':
        case chargeName:
        case constantInName:
          return 0;
        default:
          // @not_strictly_false and an index cost 1; so does a call of a function, which charges
          // the rest of its cost when it runs (an operand that is an error skips the function).
          return 1;
      }
    case 'constExpr':
    case 'comprehensionExpr':
    case undefined:
      return 0;
  }
}

/** `a.b.c` as the name `a.b.c`; undefined for any other expression. */
function qualifiedName(e: Expr): string | undefined {
  const k = e.exprKind;
  if (k.case === 'identExpr') return k.value.name;
  if (k.case !== 'selectExpr' || k.value.testOnly || k.value.operand === undefined) return undefined;
  const operand = qualifiedName(k.value.operand);
  return operand === undefined ? undefined : `${operand}.${k.value.field}`;
}

/** An identifier or a select of one: a conditional's branch cel-go charges nothing for. */
function isAttribute(e: Expr): boolean {
  const k = e.exprKind;
  if (k.case === 'identExpr') return true;
  return (
    k.case === 'selectExpr' &&
    !k.value.testOnly &&
    k.value.operand !== undefined &&
    isAttribute(k.value.operand)
  );
}

export class ChargePlanner {
  readonly #b: ExprBuilder;
  /** Whether the environment has a function of this (qualified) name. */
  readonly #isFunction: (name: string) => boolean;

  constructor(b: ExprBuilder, isFunction: (name: string) => boolean) {
    this.#b = b;
    this.#isFunction = isFunction;
  }

  /** What evaluating `e` costs besides its calls and its parts that charge themselves. */
  eagerCost(e: Expr): number {
    let sum = ownCost(e);
    for (const child of this.#eagerChildren(e)) if (child !== undefined) sum += this.eagerCost(child);
    return sum;
  }

  /**
   * The children of `e` evaluated whenever it is, as cel-go charges them. The others (a
   * comprehension's condition and step, the right operand of `&&` and `||`, a conditional's
   * branches) charge their own cost when evaluated. A namespace before a function's name
   * (`sets.contains(…)`) and an identifier as an index are not evaluated on their own.
   */
  #eagerChildren(e: Expr): (Expr | undefined)[] {
    const k = e.exprKind;
    if (k.case === 'comprehensionExpr') return [k.value.iterRange, k.value.accuInit, k.value.result];
    if (k.case !== 'callExpr') return childrenOf(e);
    const call = k.value;
    switch (call.function) {
      case '_&&_':
      case '_||_':
      case '_?_:_':
        return [call.args[0]];
      case chargeName:
        return [];
      case '_[_]':
        return call.args[1]?.exprKind.case === 'identExpr' ? [call.args[0]] : call.args;
      default: {
        const namespace = call.target === undefined ? undefined : qualifiedName(call.target);
        if (namespace !== undefined && this.#isFunction(`${namespace}.${call.function}`)) return call.args;
        return childrenOf(e);
      }
    }
  }

  /** `e` with every part that is evaluated conditionally or per iteration charging its cost. */
  withCharges(e: Expr): Expr {
    const kind = mapChildren(e, (child) => this.withCharges(child));
    if (kind.case === 'comprehensionExpr') {
      const c = kind.value;
      const loopCondition = c.loopCondition && this.#charged(e, c.loopCondition);
      const loopStep = c.loopStep && this.#charged(e, c.loopStep);
      return { ...e, exprKind: { ...kind, value: { ...c, loopCondition, loopStep } } };
    }
    if (kind.case !== 'callExpr') return { ...e, exprKind: kind };
    const call = kind.value;
    const [first, ...rest] = call.args;
    if (first === undefined) return { ...e, exprKind: kind };
    let args: Expr[];
    switch (call.function) {
      case '_&&_':
      case '_||_':
        args = [first, ...rest.map((x) => this.#charged(e, x))];
        break;
      case '_?_:_':
        args = [first, ...rest.map((x) => (isAttribute(x) ? x : this.#charged(e, x)))];
        break;
      default:
        return { ...e, exprKind: kind };
    }
    return { ...e, exprKind: { ...kind, value: { ...call, args } } };
  }

  /** `@charge(n) ? part : false`: the charge comes first, so a part that fails is charged too. */
  #charged(at: Expr, part: Expr): Expr {
    const n = this.eagerCost(part);
    if (n === 0) return part;
    const b = this.#b;
    const pos = b.pos(at);
    const charge = b.call(pos, chargeName, [b.constant(pos, { case: 'int64Value', value: BigInt(n) })]);
    return b.call(pos, '_?_:_', [charge, part, b.constant(pos, { case: 'boolValue', value: false })]);
  }
}
