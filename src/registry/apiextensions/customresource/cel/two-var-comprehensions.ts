// cel-go's two-variable comprehensions (ext.TwoVarComprehensions, in kube's environment since
// 1.32): `all`, `exists`, `existsOne` / `exists_one`, `transformList`, `transformMap` and
// `transformMapEntry` with an index (or key) variable and a value variable. @bufbuild/cel parses
// them as plain calls and its planner has no second iteration variable, so each is expanded here
// into a one-variable comprehension with cel-go's accumulator, step and result:
//
//   t.all(k, v, p)  →  cel.bind(@it2, t, @twoVarRange(@it2).all-like(k, p[v := @it2[k]]))
//
// the target bound once, the loop over its indexes (a list) or keys (a map), and each use of the
// value variable read as `@it2[k]`. The estimated cost charges such a use as an index (two more
// than cel-go charges a variable) and the bind once (a list creation, 10).
import type * as Cel from '@bufbuild/cel';
import { entriesOf, mapKeyOf, type MapKey } from './map-keys.js';
import { CelSyntaxError, type CallNode, type Expr, type ExprBuilder, mapChildren } from './expr-builder.js';

export const twoVarRange = '@twoVarRange';
export const mapInsert = '@mapInsert';
const target = '@it2';
const accu = '@result';

const arities: Readonly<Record<string, readonly number[]>> = {
  all: [3],
  exists: [3],
  existsOne: [3],
  exists_one: [3],
  transformList: [3, 4],
  transformMap: [3, 4],
  transformMapEntry: [3, 4],
};

/** Whether an expression may use a two-variable comprehension (a cheap look before a walk). */
export const mayUseTwoVar = (source: string): boolean =>
  /\b(all|exists|existsOne|exists_one|transformList|transformMap|transformMapEntry)\s*\(/.test(source);

/** `e` with each free use of `name` replaced by `value()`; comprehensions that rebind it are left. */
function substitute(e: Expr, name: string, value: () => Expr): Expr {
  const k = e.exprKind;
  if (k.case === 'identExpr') return k.value.name === name ? value() : e;
  if (k.case === 'comprehensionExpr') {
    const c = k.value;
    const outside = (x: Expr | undefined): Expr | undefined => x && substitute(x, name, value);
    const underAccu = c.accuVar === name;
    const inside = (x: Expr | undefined): Expr | undefined =>
      underAccu || c.iterVar === name ? x : outside(x);
    e.exprKind = {
      ...k,
      value: {
        ...c,
        iterRange: outside(c.iterRange),
        accuInit: outside(c.accuInit),
        loopCondition: inside(c.loopCondition),
        loopStep: inside(c.loopStep),
        result: underAccu ? c.result : outside(c.result),
      },
    };
    return e;
  }
  e.exprKind = mapChildren(e, (child) => substitute(child, name, value));
  return e;
}

function iterVarName(b: ExprBuilder, arg: Expr): string {
  if (arg.exprKind.case !== 'identExpr')
    throw new CelSyntaxError(b.pos(arg), 'argument must be a simple name');
  const name = arg.exprKind.value.name;
  if (name === accu || name === '__result__')
    throw new CelSyntaxError(b.pos(arg), 'iteration variable overwrites accumulator variable');
  return name;
}

/** The expansion of a two-variable comprehension macro call; undefined for any other call. */
export function expandTwoVar(b: ExprBuilder, e: Expr, c: CallNode): Expr | undefined {
  const [a0, a1, a2, a3] = c.args;
  const arity = arities[c.function];
  if (!Object.hasOwn(arities, c.function) || arity?.includes(c.args.length) !== true) return undefined;
  if (c.target === undefined || a0 === undefined || a1 === undefined || a2 === undefined) return undefined;
  const k = iterVarName(b, a0);
  const v = iterVarName(b, a1);
  if (k === v) throw new CelSyntaxError(b.pos(a1), `duplicate variable name: ${k}`);
  const at = b.pos(e);
  const valueOf = (x: Expr): Expr =>
    substitute(x, v, () => b.call(at, '_[_]', [b.ident(at, target), b.ident(at, k)]));
  const filter = a3 === undefined ? undefined : valueOf(a2);
  const body = valueOf(a3 ?? a2);
  const result = b.ident(at, accu);
  const filtered = (step: Expr): Expr =>
    filter === undefined ? step : b.call(at, '_?_:_', [filter, step, b.ident(at, accu)]);
  const always = b.constant(at, { case: 'boolValue', value: true });
  const loop = ((): { init: Expr; cond: Expr; step: Expr; result: Expr } => {
    switch (c.function) {
      case 'all':
        return {
          init: b.constant(at, { case: 'boolValue', value: true }),
          cond: b.call(at, '@not_strictly_false', [b.ident(at, accu)]),
          step: b.call(at, '_&&_', [b.ident(at, accu), body]),
          result,
        };
      case 'exists':
        return {
          init: b.constant(at, { case: 'boolValue', value: false }),
          cond: b.call(at, '@not_strictly_false', [b.call(at, '!_', [b.ident(at, accu)])]),
          step: b.call(at, '_||_', [b.ident(at, accu), body]),
          result,
        };
      case 'transformList':
        return {
          init: b.list(at, []),
          cond: always,
          step: filtered(b.call(at, '_+_', [b.ident(at, accu), b.list(at, [body])])),
          result,
        };
      case 'transformMap':
        return {
          init: b.emptyMap(at),
          cond: always,
          step: filtered(b.call(at, mapInsert, [b.ident(at, accu), b.ident(at, k), body])),
          result,
        };
      case 'transformMapEntry':
        return {
          init: b.emptyMap(at),
          cond: always,
          step: filtered(b.call(at, mapInsert, [b.ident(at, accu), body])),
          result,
        };
      default: {
        // existsOne and exists_one: counts, without stopping early.
        const one = b.constant(at, { case: 'int64Value', value: 1n });
        return {
          init: b.constant(at, { case: 'int64Value', value: 0n }),
          cond: always,
          step: b.call(at, '_?_:_', [body, b.call(at, '_+_', [b.ident(at, accu), one]), b.ident(at, accu)]),
          result: b.call(at, '_==_', [b.ident(at, accu), b.constant(at, { case: 'int64Value', value: 1n })]),
        };
      }
    }
  })();
  const comprehension = b.comprehension(at, {
    iterRange: b.call(at, twoVarRange, [b.ident(at, target)]),
    iterVar: k,
    accuVar: accu,
    accuInit: loop.init,
    loopCondition: loop.cond,
    loopStep: loop.step,
    result: loop.result,
  });
  return b.bind(at, { name: target, value: c.target, body: comprehension });
}

/** The functions the expansions call: the range of indexes or keys, and cel-go's map insertion. */
export function twoVarFunctions(cel: typeof Cel): Cel.CelFunc[] {
  const { DYN } = cel.CelScalar;
  const map = cel.mapType(DYN, DYN);
  const insert = (into: Map<MapKey, Cel.CelInput>, key: Cel.CelValue, value: Cel.CelValue): void => {
    const k = mapKeyOf(cel, key);
    if (into.has(k))
      throw new Error(`insert failed: key ${String(cel.isCelUint(k) ? k.value : k)} already exists`);
    into.set(k, value);
  };
  return [
    cel.celFunc(twoVarRange, [DYN], cel.listType(DYN), (x) => {
      if (cel.isCelList(x)) return Array.from({ length: x.size }, (_, i) => BigInt(i));
      if (cel.isCelMap(x)) return [...x.keys()];
      throw new Error('no such overload');
    }),
    cel.celFunc(mapInsert, [map, DYN, DYN], map, (m, key, value) => {
      const out = entriesOf(m);
      insert(out, key, value);
      return cel.celMap(out);
    }),
    cel.celFunc(mapInsert, [map, map], map, (m, entries) => {
      const out = entriesOf(m);
      for (const [key, value] of entries) insert(out, key, value);
      return cel.celMap(out);
    }),
  ];
}
