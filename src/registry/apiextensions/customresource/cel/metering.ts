// The runtime cost of an evaluation, held to kube's per-call limit (cel-go's CostTracker with
// cel.CostLimit(celconfig.PerCallLimit), set on every program of kube's base environment).
// @bufbuild/cel keeps no count, so the count is made around it:
// - what evaluating each node costs (an identifier, a select or a call 1, a list literal 10, a map
//   literal 30, a message 40; constants, literals of constants, what cel-go folds when it plans
//   (constant-folding.ts) and `&&`, `||` and `?:` nothing) is counted from the tree before the
//   program is planned (cost-charges.ts): the nodes always evaluated are charged when the
//   evaluation starts, and each part evaluated only sometimes (a comprehension's condition and
//   step, the right operand of `&&` and `||`, a conditional's branches) is rewritten to
//   `@charge(n) ? part : false`, which charges its nodes each time before it is evaluated;
// - the functions whose cost grows with their operands are wrapped to charge the rest of it when
//   they run (runtime-cost.ts).
// This gives cel-go's counts for every case of kube's cost tests (testing/kube-cost-cases.ts). An
// evaluation past the limit ends at the next charge, with kube's error.
import type * as Cel from '@bufbuild/cel';
import { constantInName, foldConstants } from './constant-folding.js';
import { ChargePlanner, chargeName } from './cost-charges.js';
import { ExprBuilder, type Parsed } from './expr-builder.js';
import { callCost, perCallLimit, sizedCost } from './runtime-cost.js';

type Module = typeof Cel;

/** cel-go's error when an evaluation passes its limit. */
export const costLimitExceeded = 'operation cancelled: actual cost limit exceeded';

/** An evaluation's value (a CelError when it failed or passed the limit) and what it cost. */
export interface MeteredEvaluation {
  readonly value: unknown;
  readonly cost: number;
}

export type MeteredProgram = (bindings: Record<string, Cel.CelInput>) => MeteredEvaluation;

class CostLimitExceeded extends Error {}

interface Meter {
  used: number;
  readonly limit: number;
}

/** A program as @bufbuild/cel plans it, before metering. */
type PlannedProgram = (bindings: Record<string, Cel.CelInput>) => unknown;

/** The meter of the evaluation under way (evaluations run synchronously, one at a time). */
export class CostMeters {
  readonly #cel: Module;
  #current: Meter | undefined;

  constructor(cel: Module) {
    this.#cel = cel;
  }

  get active(): boolean {
    return this.#current !== undefined;
  }

  /** Adds `n` to the evaluation under way; past its limit, throws to end it. */
  charge(n: number): void {
    const m = this.#current;
    if (m === undefined) return;
    m.used += n;
    if (m.used > m.limit) throw new CostLimitExceeded(costLimitExceeded);
  }

  /** Runs `program` over `bindings` under a new meter that starts at `base`. */
  measure(program: PlannedProgram, base: number, bindings: Record<string, Cel.CelInput>): MeteredEvaluation {
    const outer = this.#current;
    const meter: Meter = { used: 0, limit: perCallLimit };
    this.#current = meter;
    // CEL's errors are values (an `||` or an `exists` may absorb them); their messages are all
    // that is read, so they are made without a stack trace, which costs more than the rest.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    let value: unknown;
    try {
      this.charge(base);
      value = program(bindings);
    } catch (err) {
      if (!(err instanceof CostLimitExceeded)) throw err;
    } finally {
      this.#current = outer;
      Error.stackTraceLimit = stackTraceLimit;
    }
    // A limit error caught by the expression (`… || true`) still ends it.
    if (meter.used > meter.limit) value = this.#cel.celError(costLimitExceeded);
    return { value, cost: meter.used };
  }
}

const funcSymbol = Symbol.for('@bufbuild/cel/func');

/** `f` charging `cost` of each call it answers. */
function chargingFunc(
  f: Cel.CelFunc,
  opts: { meters: CostMeters; cost: (args: Cel.CelValue[], result: unknown) => number },
): Cel.CelFunc {
  const { meters, cost } = opts;
  const wrapped = {
    [funcSymbol]: {},
    id: f.id,
    name: f.name,
    target: f.target,
    arguments: f.arguments,
    result: f.result,
    call(id: number, target: Cel.CelValue | undefined, args: Cel.CelValue[]): Cel.CelResult | undefined {
      const result = f.call(id, target, args);
      if (result !== undefined && meters.active)
        meters.charge(cost(target === undefined ? args : [target, ...args], result));
      return result;
    },
  };
  // CelFunc's brand is a symbol @bufbuild/cel does not export; it is Symbol.for's, as set above.
  return wrapped as unknown as Cel.CelFunc;
}

/**
 * Every function of `funcs` metered, `@charge`, and the free membership test in a list of
 * constants (constant-folding.ts): the functions of a metered environment.
 */
export function meteredFuncs(
  cel: Module,
  opts: { funcs: Iterable<Cel.CelFunc>; meters: CostMeters },
): Cel.CelFunc[] {
  const { meters } = opts;
  const funcs = [...opts.funcs];
  // A call costs 1 from the tree (cost-charges.ts): only functions whose cost grows with their
  // operands charge more when they run.
  const out = funcs.map((f) =>
    sizedCost(f.name)
      ? chargingFunc(f, { meters, cost: (args, result) => callCost(cel, { name: f.name, args, result }) - 1 })
      : f,
  );
  const { BOOL, INT, DYN } = cel.CelScalar;
  const charge = cel.celFunc(chargeName, [INT], BOOL, () => true);
  out.push(chargingFunc(charge, { meters, cost: (args) => Number(args[0]) }));
  const inList = funcs.find((f) => f.id === '@in(dyn,list)');
  if (inList === undefined) throw new Error('no @in(dyn,list) in the CEL environment');
  out.push(
    cel.celFunc(
      constantInName,
      [DYN, cel.listType(DYN)],
      BOOL,
      (x, list) => inList.call(0, undefined, [x, list]) === true,
    ),
  );
  return out;
}

/** Plans `parsed` (which is left as it is) for metered evaluations in `env`. */
export function planMetered(
  cel: Module,
  opts: { env: Cel.CelEnv; meters: CostMeters; parsed: Parsed },
): MeteredProgram {
  const { env, meters, parsed } = opts;
  const b = new ExprBuilder({ ...(parsed.sourceInfo?.positions ?? {}) });
  const folded = foldConstants(cel, { env, b, expr: parsed.expr });
  const charges = new ChargePlanner(b, (name) => env.funcs.find(name) !== undefined);
  const expr = charges.withCharges(folded.expr);
  const base = charges.eagerCost(expr);
  const program = cel.plan(env, { ...parsed, expr });
  const { constants } = folded;
  if (Object.keys(constants).length === 0) return (bindings) => meters.measure(program, base, bindings);
  return (bindings) => meters.measure(program, base, { ...bindings, ...constants });
}
