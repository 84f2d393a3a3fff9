// The static cost of a rule as kube estimates it before storing a CRD: cel-go's estimator
// (checker/cost.go) with kube's hooks (k8s.io/apiserver pkg/cel/library/cost.go for its library's
// functions, apiextensions-apiserver's sizeEstimator for how long a field's lists, maps and
// strings can be). Each node costs what cel-go charges for it; a comprehension charges its loop
// once per element the range can hold, sized from the schema (cost-estimate.ts has the
// arithmetic, decl-type.ts the sizes, cost-kube.ts kube's functions, cost-builtin.ts cel-go's).
// The estimator types the expression itself (cost-types.ts), as far as costs depend on types:
// which overloads of an operator apply, whether a select reads a field of an object or map; its
// tables of types, paths and sizes are cost-scope.ts.
import type { DeclType } from './decl-type.js';
import type { CelModule } from './load.js';
import {
  add,
  fixed,
  maxUint64,
  multiply,
  sum,
  union,
  unknown,
  zero,
  type Estimate,
} from './cost-estimate.js';
import { builtinCost, setsCost } from './cost-builtin.js';
import { kubeCallCost } from './cost-kube.js';
import {
  common,
  constType,
  dyn,
  fieldType,
  listOf,
  optionalOf,
  optionalParam,
  overloadsOf,
  resultType,
  scalar,
  type CallEstimate,
  type CelType,
  type Expr,
  type Operand,
} from './cost-types.js';
import { CostScope, idOf } from './cost-scope.js';
import { stringLiteral } from './expr-builder.js';
import { optChainSelect, optSelect } from './optional-syntax.js';
import { twoVarRange } from './two-var-comprehensions.js';

type Parsed = ReturnType<CelModule['parse']>;

// cel-go's common/cost.go.
const selectAndIdentCost = fixed(1);
const listCreateBaseCost = fixed(10);
const mapCreateBaseCost = fixed(30);
const structCreateBaseCost = fixed(40);

/** One estimate of one expression. */
class Coster extends CostScope {
  cost(e: Expr | undefined): Estimate {
    if (e === undefined) return zero;
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr':
        this.types.set(idOf(e), constType(k.value.constantKind.case));
        return zero;
      case 'identExpr':
        return this.#ident(e, k.value.name);
      case 'selectExpr':
        return this.#select(e, k.value);
      case 'callExpr':
        return this.#call(e, k.value);
      case 'listExpr':
        return this.#list(e, k.value.elements);
      case 'structExpr':
        return this.#struct(e, k.value);
      case 'comprehensionExpr':
        return this.#comprehension(e, k.value);
      case undefined:
        return zero;
    }
  }

  #ident(e: Expr, name: string): Estimate {
    const v = this.local(name);
    if (v !== undefined) {
      this.paths.set(idOf(e), v.path);
      this.types.set(idOf(e), v.type);
    } else {
      this.paths.set(idOf(e), [name]);
      this.types.set(idOf(e), this.vars.get(name) ?? scalar('type'));
    }
    return selectAndIdentCost;
  }

  #select(e: Expr, sel: { operand?: Expr | undefined; field: string; testOnly: boolean }): Estimate {
    if (sel.testOnly) {
      // kube's environment charges nothing for the presence test itself (PresenceTestHasCost(false)).
      const cost = this.cost(sel.operand);
      this.types.set(idOf(e), scalar('bool'));
      return cost;
    }
    let cost = this.cost(sel.operand);
    const on = this.type(sel.operand);
    if (on.k === 'map' || on.k === 'struct') cost = add(cost, selectAndIdentCost);
    this.paths.set(idOf(e), [...this.path(sel.operand), sel.field]);
    this.types.set(idOf(e), fieldType(on, sel.field));
    return cost;
  }

  /** The type of `a.?b`: an optional of the field's type (of what `a` holds, when it is optional). */
  #optionalField(args: readonly Expr[]): CelType {
    const [operand, name] = args;
    return optionalOf(fieldType(optionalParam(this.type(operand)), stringLiteral(name) ?? ''));
  }

  /**
   * A member of an optional chain (`a.?b.c`), which cel-go checks as a select on an optional: the
   * operand's cost, nothing for the select (its target is no map or object), the path extended.
   */
  #chainSelect(e: Expr, args: readonly Expr[]): Estimate {
    const [operand, name] = args;
    const cost = this.cost(operand);
    const field = stringLiteral(name) ?? '';
    this.paths.set(idOf(e), [...this.path(operand), field]);
    this.types.set(idOf(e), optionalOf(fieldType(optionalParam(this.type(operand)), field)));
    return cost;
  }

  /**
   * The range of an expanded two-variable comprehension (two-var-comprehensions.ts): as many
   * elements as `of` holds, each an index (a list's) or a key (a map's), sized as cel-go sizes the
   * first variable.
   */
  #twoVarRange(e: Expr, of: Expr): Estimate {
    const cost = add(fixed(1), this.cost(of));
    const id = idOf(e);
    const count = this.computeSize(of);
    if (count !== undefined) this.sizes.set(id, count);
    const entry = this.entryOf(of);
    const type = this.type(of);
    const map = entry?.container === 'map' || type.k === 'map';
    this.entrySizes.set(id, {
      container: 'list',
      key: fixed(1),
      value: map ? (entry?.key ?? unknown) : fixed(1),
    });
    this.types.set(id, listOf(map ? (type.k === 'map' ? type.key : dyn) : scalar('int')));
    return cost;
  }

  #list(e: Expr, elements: readonly Expr[]): Estimate {
    let cost = zero;
    let itemSize: Estimate = { min: elements.length === 0 ? 0n : maxUint64, max: 0n };
    let elem: CelType | undefined;
    for (const el of elements) {
      cost = add(cost, this.cost(el));
      itemSize = union(itemSize, this.sizeOrUnknown(el));
      elem = elem === undefined ? this.type(el) : common(elem, this.type(el));
    }
    this.entrySizes.set(idOf(e), { container: 'list', key: fixed(1), value: itemSize });
    this.types.set(idOf(e), listOf(elem ?? dyn));
    return add(cost, listCreateBaseCost);
  }

  #struct(e: Expr, value: Extract<Expr['exprKind'], { case: 'structExpr' }>['value']): Estimate {
    let cost = zero;
    if (value.messageName !== '') {
      for (const entry of value.entries) cost = add(cost, this.cost(entry.value));
      this.types.set(idOf(e), dyn);
      return add(cost, structCreateBaseCost);
    }
    // A map literal.
    const none = value.entries.length === 0;
    let keySize: Estimate = { min: none ? 0n : maxUint64, max: 0n };
    let valueSize: Estimate = { min: none ? 0n : maxUint64, max: 0n };
    for (const entry of value.entries) {
      const key = entry.keyKind.case === 'mapKey' ? entry.keyKind.value : undefined;
      cost = add(cost, this.cost(key));
      cost = add(cost, this.cost(entry.value));
      keySize = union(keySize, key === undefined ? unknown : this.sizeOrUnknown(key));
      valueSize = union(valueSize, this.sizeOrUnknown(entry.value));
    }
    this.entrySizes.set(idOf(e), { container: 'map', key: keySize, value: valueSize });
    this.types.set(idOf(e), { k: 'map', key: dyn, value: dyn });
    return add(cost, mapCreateBaseCost);
  }

  #comprehension(e: Expr, c: Extract<Expr['exprKind'], { case: 'comprehensionExpr' }>['value']): Estimate {
    let cost = add(this.cost(c.iterRange), this.cost(c.accuInit));
    const accuType = this.type(c.accuInit);
    this.push(c.accuVar, {
      path: this.path(c.accuInit),
      size: c.accuInit === undefined ? undefined : this.computeSize(c.accuInit),
      entry: c.accuInit === undefined ? undefined : this.entrySizes.get(idOf(c.accuInit)),
      type: accuType.k === 'list' ? listOf(dyn) : accuType,
    });
    this.#pushIterVar(c.iterVar, c.iterRange);
    const loop = this.cost(c.loopCondition);
    const step = this.cost(c.loopStep);
    this.pop(c.iterVar);
    cost = add(cost, this.cost(c.result));
    this.pop(c.accuVar);
    const rangeCount = this.sizeOrUnknown(c.iterRange);
    cost = add(cost, multiply(rangeCount, add(step, loop)));
    this.types.set(idOf(e), this.type(c.result));
    const init = c.accuInit?.exprKind.case;
    if (init === 'constExpr' && c.accuInit !== undefined) {
      const size = this.computeSize(c.accuInit);
      if (size !== undefined) this.sizes.set(idOf(e), size);
    } else if (
      init === 'listExpr' ||
      (init === 'structExpr' && c.accuInit?.exprKind.value.messageName === '')
    ) {
      this.sizes.set(idOf(e), rangeCount);
      const stepEntry = c.loopStep === undefined ? undefined : this.entrySizes.get(idOf(c.loopStep));
      if (stepEntry !== undefined) this.entrySizes.set(idOf(e), stepEntry);
    }
    return cost;
  }

  /** A one-variable comprehension's variable: a list's items, a map's keys. */
  #pushIterVar(name: string, range: Expr | undefined): void {
    const entry = range === undefined ? undefined : this.entryOf(range);
    const rangeType = this.type(range);
    const container = entry?.container ?? (rangeType.k === 'list' ? 'list' : 'map');
    const path = this.path(range);
    if (container === 'list') {
      this.push(name, {
        path: [...path, '@items'],
        size: entry?.value,
        entry: undefined,
        type: rangeType.k === 'list' ? rangeType.elem : dyn,
      });
    } else {
      this.push(name, {
        path: [...path, '@keys'],
        size: entry?.key,
        entry: undefined,
        type: rangeType.k === 'map' ? rangeType.key : dyn,
      });
    }
  }

  #call(e: Expr, call: Extract<Expr['exprKind'], { case: 'callExpr' }>['value']): Estimate {
    // `ip.isCanonical(s)` calls the function `ip.isCanonical`: its target names no variable.
    const namespace =
      call.target?.exprKind.case === 'identExpr' ? call.target.exprKind.value.name : undefined;
    const qualified =
      namespace !== undefined && !this.vars.has(namespace) && this.local(namespace) === undefined;
    const f = qualified ? `${namespace}.${call.function}` : call.function;
    const callTarget = qualified ? undefined : call.target;
    if (f === optChainSelect) return this.#chainSelect(e, call.args);
    if (f === twoVarRange && call.args[0] !== undefined) return this.#twoVarRange(e, call.args[0]);
    if (f === 'dyn' && call.args[0] !== undefined) {
      const arg = call.args[0];
      const cost = add(fixed(1), this.cost(arg));
      const size = this.computeSize(arg);
      if (size !== undefined) this.sizes.set(idOf(e), size);
      const entry = this.entryOf(arg);
      if (entry !== undefined) this.entrySizes.set(idOf(e), entry);
      this.types.set(idOf(e), dyn);
      return cost;
    }
    const argCosts: Estimate[] = [];
    const args: Operand[] = [];
    for (const arg of call.args) {
      argCosts.push(this.cost(arg));
      args.push(this.operand(arg));
    }
    const member = callTarget !== undefined;
    let cost = zero;
    let target: Operand | undefined;
    if (callTarget !== undefined) {
      cost = this.cost(callTarget);
      target = this.operand(callTarget);
    }
    const argTypes = args.map((a) => a.type);
    this.types.set(
      idOf(e),
      f === optSelect ? this.#optionalField(call.args) : resultType(f, target?.type, argTypes),
    );
    const ids = overloadsOf(f, {
      member,
      ...(target === undefined ? {} : { target: target.type }),
      args: argTypes,
    });
    if (ids.length === 0) return zero;
    let fnCost: Estimate = { min: maxUint64, max: 0n };
    let resultSize: Estimate | undefined;
    for (const id of ids) {
      const est = this.#functionCost(e, { f, id, target, args, argCosts });
      fnCost = union(fnCost, est.cost);
      if (est.resultSize !== undefined)
        resultSize = resultSize === undefined ? est.resultSize : union(resultSize, est.resultSize);
      const container = call.args[0];
      if ((id === 'index_list' || id === 'index_map') && container !== undefined) {
        resultSize = this.entryOf(container)?.value;
        this.paths.set(idOf(e), [...this.path(container), id === 'index_list' ? '@items' : '@values']);
      }
      resultSize ??= this.computeSize(e);
    }
    if (resultSize !== undefined) this.sizes.set(idOf(e), resultSize);
    return add(cost, fnCost);
  }

  #functionCost(
    e: Expr,
    c: { f: string; id: string; target: Operand | undefined; args: Operand[]; argCosts: Estimate[] },
  ): CallEstimate {
    const argSum = sum(c.argCosts);
    const withArgs = (est: CallEstimate | undefined): CallEstimate | undefined =>
      est === undefined ? undefined : { ...est, cost: add(est.cost, argSum) };
    const known =
      withArgs(setsCost(this.operandSizes, c.id, c.args)) ?? withArgs(kubeCallCost(this.operandSizes, c));
    if (known !== undefined) return known;
    const builtin = builtinCost({ ...c, argSum });
    if (builtin === undefined) return { cost: add(fixed(1), argSum) };
    if (builtin.joinEntries !== undefined) this.unionEntrySizes(e, ...builtin.joinEntries);
    return builtin;
  }
}

/**
 * The estimated cost of a parsed rule whose variables (self, oldSelf) have the given types, its
 * fields sized by `root`, the declared type of the schema node the rule is on.
 */
export function estimateCost(
  parsed: Parsed,
  opts: { root: DeclType | undefined; vars: ReadonlyMap<string, CelType> },
): Estimate {
  return new Coster(opts.root, opts.vars).cost(parsed.expr);
}
