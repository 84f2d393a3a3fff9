// The static cost of a rule as kube estimates it before storing a CRD: cel-go's estimator
// (checker/cost.go) with kube's hooks (k8s.io/apiserver pkg/cel/library/cost.go for its library's
// functions, apiextensions-apiserver's sizeEstimator for how long a field's lists, maps and
// strings can be). Each node costs what cel-go charges for it; a comprehension charges its loop
// once per element the range can hold, sized from the schema (cost-estimate.ts has the
// arithmetic, decl-type.ts the sizes). The estimator types the expression itself, as far as costs
// depend on types: which overloads of an operator apply, whether a select reads a field of an
// object or map.
import { constantKind } from './check.js';
import type { CelModule } from './load.js';
import type { DeclType } from './decl-type.js';
import {
  add,
  fixed,
  multiply,
  scale,
  sum,
  union,
  unknown,
  zero,
  maxUint64,
  type Estimate,
} from './cost-estimate.js';

type Expr = ReturnType<CelModule['parse']>['expr'];
type Parsed = ReturnType<CelModule['parse']>;

// cel-go's common/cost.go.
const selectAndIdentCost = fixed(1);
const listCreateBaseCost = fixed(10);
const mapCreateBaseCost = fixed(30);
const structCreateBaseCost = fixed(40);
const stringTraversalCostFactor = 0.1;
const regexStringLengthCostFactor = 0.25;
// kube's format library: the longest named format's pattern (MaxNameFormatRegexSize).
const maxNameFormatRegexSize = 128;

type ScalarKind =
  | 'bool'
  | 'int'
  | 'uint'
  | 'double'
  | 'string'
  | 'bytes'
  | 'null'
  | 'duration'
  | 'timestamp'
  | 'type'
  | 'dyn';

/** The CEL type of an expression, as far as costs depend on it. */
export type CelType =
  | { readonly k: ScalarKind }
  | { readonly k: 'list'; readonly elem: CelType }
  | { readonly k: 'map'; readonly key: CelType; readonly value: CelType }
  /** A schema object (with its fields) or one of kube's library objects (Quantity, URL…). */
  | { readonly k: 'struct'; readonly name: string; readonly decl?: DeclType }
  /** IP, CIDR, optional. */
  | { readonly k: 'opaque'; readonly name: string; readonly param?: CelType };

const scalar = (k: ScalarKind): CelType => ({ k });
const dyn = scalar('dyn');
const listOf = (elem: CelType): CelType => ({ k: 'list', elem });
const libStruct = (name: string): CelType => ({ k: 'struct', name });
const libOpaque = (name: string): CelType => ({ k: 'opaque', name });

/** The CEL type of a value of the declared type. */
export function declCelType(decl: DeclType | undefined): CelType {
  if (decl === undefined) return dyn;
  const kind = decl.kind;
  if (kind === 'object') return { k: 'struct', name: 'object', decl };
  if (kind === 'list') return listOf(declCelType(decl.elem));
  if (kind === 'map') return { k: 'map', key: scalar('string'), value: declCelType(decl.elem) };
  return scalar(kind);
}

function sameType(a: CelType, b: CelType): boolean {
  if (a.k === 'list') return b.k === 'list' && sameType(a.elem, b.elem);
  if (a.k === 'map') return b.k === 'map' && sameType(a.key, b.key) && sameType(a.value, b.value);
  if (a.k === 'struct' || a.k === 'opaque') return b.k === a.k && a.name === b.name;
  return a.k === b.k;
}

/** The type two branches share, dyn where they differ. */
const common = (a: CelType | undefined, b: CelType | undefined): CelType =>
  a !== undefined && b !== undefined && sameType(a, b) ? a : dyn;

const is = (t: CelType | undefined, ...kinds: CelType['k'][]): boolean =>
  t !== undefined && (t.k === 'dyn' || kinds.includes(t.k));

const orderedKinds: CelType['k'][] = ['int', 'uint', 'double', 'bool', 'timestamp', 'duration'];
const arithmeticKinds: CelType['k'][] = ['int', 'uint', 'double', 'timestamp', 'duration'];

function boolFn(): CelType {
  return scalar('bool');
}

// Result types of functions by name (the few that depend on their operands are in resultType).
const resultByName: Readonly<Record<string, () => CelType>> = {
  '_&&_': boolFn,
  '_||_': boolFn,
  '!_': boolFn,
  '@not_strictly_false': boolFn,
  '_==_': boolFn,
  '_!=_': boolFn,
  '_<_': boolFn,
  '_<=_': boolFn,
  '_>_': boolFn,
  '_>=_': boolFn,
  '@in': boolFn,
  matches: boolFn,
  startsWith: boolFn,
  endsWith: boolFn,
  contains: boolFn,
  isSorted: boolFn,
  hasValue: boolFn,
  bool: boolFn,
  size: () => scalar('int'),
  int: () => scalar('int'),
  indexOf: () => scalar('int'),
  lastIndexOf: () => scalar('int'),
  uint: () => scalar('uint'),
  double: () => scalar('double'),
  string: () => scalar('string'),
  lowerAscii: () => scalar('string'),
  upperAscii: () => scalar('string'),
  trim: () => scalar('string'),
  replace: () => scalar('string'),
  substring: () => scalar('string'),
  charAt: () => scalar('string'),
  join: () => scalar('string'),
  find: () => scalar('string'),
  format: () => scalar('string'),
  'strings.quote': () => scalar('string'),
  bytes: () => scalar('bytes'),
  duration: () => scalar('duration'),
  timestamp: () => scalar('timestamp'),
  type: () => scalar('type'),
  dyn: () => dyn,
  split: () => listOf(scalar('string')),
  findAll: () => listOf(scalar('string')),
  quantity: () => libStruct('kubernetes.Quantity'),
  url: () => libStruct('kubernetes.URL'),
  semver: () => libStruct('kubernetes.Semver'),
  'format.named': () => libStruct('kubernetes.NamedFormat'),
  ip: () => libOpaque('net.IP'),
  cidr: () => libOpaque('net.CIDR'),
};

function arithmeticResult(f: string, a: CelType | undefined, b: CelType | undefined): CelType {
  if (a === undefined || b === undefined) return dyn;
  if (f === '_+_' && a.k === 'timestamp' && b.k === 'duration') return a;
  if (f === '_+_' && a.k === 'duration' && b.k === 'timestamp') return b;
  if (f === '_-_' && a.k === 'timestamp') return b.k === 'timestamp' ? scalar('duration') : a;
  if (a.k === 'list' && b.k === 'list') return listOf(common(a.elem, b.elem));
  return common(a, b);
}

function resultType(f: string, target: CelType | undefined, args: readonly CelType[]): CelType {
  const byName = resultByName[f];
  if (byName !== undefined) return byName();
  switch (f) {
    case '_+_':
    case '_-_':
    case '_*_':
    case '_/_':
    case '_%_':
      return arithmeticResult(f, args[0], args[1]);
    case '-_':
      return args[0] ?? dyn;
    case '_?_:_':
      return common(args[1], args[2]);
    case '_[_]': {
      const on = args[0];
      if (on?.k === 'list') return on.elem;
      if (on?.k === 'map') return on.value;
      return dyn;
    }
    case 'sum':
    case 'min':
    case 'max':
      return target?.k === 'list' ? target.elem : dyn;
    case 'value':
    case 'orValue':
      return target?.k === 'opaque' && target.param !== undefined ? target.param : dyn;
    default:
      return dyn;
  }
}

/** The overloads cel-go's checker would pick for a call, by its operands' types. */
function overloadsOf(
  f: string,
  call: { member: boolean; target?: CelType; args: readonly CelType[] },
): string[] {
  const [a, b] = call.args;
  const both = (...kinds: CelType['k'][]): boolean => is(a, ...kinds) && is(b, ...kinds);
  const picked = (entries: [string, boolean][]): string[] => entries.filter(([, ok]) => ok).map(([id]) => id);
  switch (f) {
    case '_==_':
      return ['equals'];
    case '_!=_':
      return ['not_equals'];
    case '_<_':
    case '_<=_':
    case '_>_':
    case '_>=_':
      return picked([
        ['compare_string', both('string')],
        ['compare_bytes', both('bytes')],
        ['compare_other', both(...orderedKinds)],
      ]);
    case '_+_':
      return picked([
        ['add_bytes', both('bytes')],
        ['add_list', both('list')],
        ['add_string', both('string')],
        ['add_other', both(...arithmeticKinds)],
      ]);
    case '@in':
      return picked([
        ['in_list', is(b, 'list')],
        ['in_map', is(b, 'map')],
      ]);
    case '_[_]':
      return picked([
        ['index_list', is(a, 'list')],
        ['index_map', is(a, 'map')],
      ]);
    case '_&&_':
      return ['logical_and'];
    case '_||_':
      return ['logical_or'];
    case '_?_:_':
      return ['conditional'];
    case 'contains':
      return [call.member && is(call.target, 'string') ? 'contains_string' : 'other'];
    case 'startsWith':
      return ['starts_with_string'];
    case 'endsWith':
      return ['ends_with_string'];
    case 'matches':
      return [call.member ? 'matches_string' : 'matches'];
    case 'format':
      return [call.member ? 'string_format' : 'other'];
    case 'strings.quote':
      return ['strings_quote'];
    case 'string':
      return is(a, 'bytes') ? ['bytes_to_string', ...(a?.k === 'dyn' ? ['other'] : [])] : ['other'];
    case 'bytes':
      return is(a, 'string') ? ['string_to_bytes', ...(a?.k === 'dyn' ? ['other'] : [])] : ['other'];
    case 'sets.contains':
      return ['list_sets_contains_list'];
    case 'sets.intersects':
      return ['list_sets_intersects_list'];
    case 'sets.equivalent':
      return ['list_sets_equivalent_list'];
    case 'ip':
      return [call.member && call.target?.k === 'opaque' ? 'cidr_ip' : 'string_to_ip'];
    case 'containsIP':
      return [is(a, 'string') && a?.k !== 'dyn' ? 'cidr_contains_ip_string' : 'cidr_contains_ip_ip'];
    case 'containsCIDR':
      return [is(a, 'string') && a?.k !== 'dyn' ? 'cidr_contains_cidr_string' : 'cidr_contains_cidr'];
    default:
      return ['other'];
  }
}

/** What an estimator knows of an operand (cel-go's AstNode). */
interface Operand {
  /** Where it is in the rule's value; undefined for computed values and accumulators. */
  readonly path: readonly string[] | undefined;
  readonly type: CelType;
  readonly expr: Expr | undefined;
  readonly size: Estimate | undefined;
}

interface EntrySize {
  readonly container: 'list' | 'map';
  readonly key: Estimate;
  readonly value: Estimate;
}

interface LocalVar {
  readonly path: readonly string[];
  readonly size: Estimate | undefined;
  readonly entry: EntrySize | undefined;
  readonly type: CelType;
}

const isAccumulator = (name: string): boolean => name === '@result' || name === '__result__';

interface CallEstimate {
  readonly cost: Estimate;
  readonly resultSize?: Estimate;
}

const idOf = (e: Expr): string => String(e.id);

/** One estimate of one expression. */
class Coster {
  readonly #root: DeclType | undefined;
  readonly #vars: ReadonlyMap<string, CelType>;
  readonly #paths = new Map<string, readonly string[]>();
  readonly #sizes = new Map<string, Estimate>();
  readonly #entrySizes = new Map<string, EntrySize>();
  readonly #types = new Map<string, CelType>();
  readonly #locals = new Map<string, LocalVar[]>();

  constructor(root: DeclType | undefined, vars: ReadonlyMap<string, CelType>) {
    this.#root = root;
    this.#vars = vars;
  }

  cost(e: Expr | undefined): Estimate {
    if (e === undefined) return zero;
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr':
        this.#types.set(idOf(e), constType(k.value.constantKind.case));
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

  #type(e: Expr | undefined): CelType {
    return e === undefined ? dyn : (this.#types.get(idOf(e)) ?? dyn);
  }

  #local(name: string): LocalVar | undefined {
    const stack = this.#locals.get(name);
    return stack?.[stack.length - 1];
  }

  #push(name: string, v: LocalVar): void {
    const stack = this.#locals.get(name) ?? [];
    stack.push(v);
    this.#locals.set(name, stack);
  }

  #pop(name: string): void {
    this.#locals.get(name)?.pop();
  }

  #path(e: Expr | undefined): readonly string[] {
    if (e === undefined) return [];
    if (e.exprKind.case === 'identExpr') {
      const v = this.#local(e.exprKind.value.name);
      if (v !== undefined) return v.path;
    }
    return this.#paths.get(idOf(e)) ?? [];
  }

  #ident(e: Expr, name: string): Estimate {
    const v = this.#local(name);
    if (v !== undefined) {
      this.#paths.set(idOf(e), v.path);
      this.#types.set(idOf(e), v.type);
    } else {
      this.#paths.set(idOf(e), [name]);
      this.#types.set(idOf(e), this.#vars.get(name) ?? scalar('type'));
    }
    return selectAndIdentCost;
  }

  #select(e: Expr, sel: { operand?: Expr | undefined; field: string; testOnly: boolean }): Estimate {
    if (sel.testOnly) {
      // kube's environment charges nothing for the presence test itself (PresenceTestHasCost(false)).
      const cost = this.cost(sel.operand);
      this.#types.set(idOf(e), scalar('bool'));
      return cost;
    }
    let cost = this.cost(sel.operand);
    const on = this.#type(sel.operand);
    if (on.k === 'map' || on.k === 'struct') cost = add(cost, selectAndIdentCost);
    this.#paths.set(idOf(e), [...this.#path(sel.operand), sel.field]);
    this.#types.set(idOf(e), fieldType(on, sel.field));
    return cost;
  }

  #list(e: Expr, elements: readonly Expr[]): Estimate {
    let cost = zero;
    let itemSize: Estimate = { min: elements.length === 0 ? 0n : maxUint64, max: 0n };
    let elem: CelType | undefined;
    for (const el of elements) {
      cost = add(cost, this.cost(el));
      itemSize = union(itemSize, this.#sizeOrUnknown(el));
      elem = elem === undefined ? this.#type(el) : common(elem, this.#type(el));
    }
    this.#entrySizes.set(idOf(e), { container: 'list', key: fixed(1), value: itemSize });
    this.#types.set(idOf(e), listOf(elem ?? dyn));
    return add(cost, listCreateBaseCost);
  }

  #struct(e: Expr, value: Extract<Expr['exprKind'], { case: 'structExpr' }>['value']): Estimate {
    let cost = zero;
    if (value.messageName !== '') {
      for (const entry of value.entries) cost = add(cost, this.cost(entry.value));
      this.#types.set(idOf(e), dyn);
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
      keySize = union(keySize, key === undefined ? unknown : this.#sizeOrUnknown(key));
      valueSize = union(valueSize, this.#sizeOrUnknown(entry.value));
    }
    this.#entrySizes.set(idOf(e), { container: 'map', key: keySize, value: valueSize });
    this.#types.set(idOf(e), { k: 'map', key: dyn, value: dyn });
    return add(cost, mapCreateBaseCost);
  }

  #comprehension(e: Expr, c: Extract<Expr['exprKind'], { case: 'comprehensionExpr' }>['value']): Estimate {
    let cost = add(this.cost(c.iterRange), this.cost(c.accuInit));
    const accuType = this.#type(c.accuInit);
    this.#push(c.accuVar, {
      path: this.#path(c.accuInit),
      size: c.accuInit === undefined ? undefined : this.#computeSize(c.accuInit),
      entry: c.accuInit === undefined ? undefined : this.#entrySizes.get(idOf(c.accuInit)),
      type: accuType.k === 'list' ? listOf(dyn) : accuType,
    });
    this.#pushIterVar(c.iterVar, c.iterRange);
    const loop = this.cost(c.loopCondition);
    const step = this.cost(c.loopStep);
    this.#pop(c.iterVar);
    cost = add(cost, this.cost(c.result));
    this.#pop(c.accuVar);
    const rangeCount = this.#sizeOrUnknown(c.iterRange);
    cost = add(cost, multiply(rangeCount, add(step, loop)));
    this.#types.set(idOf(e), this.#type(c.result));
    const init = c.accuInit?.exprKind.case;
    if (init === 'constExpr' && c.accuInit !== undefined) {
      const size = this.#computeSize(c.accuInit);
      if (size !== undefined) this.#sizes.set(idOf(e), size);
    } else if (
      init === 'listExpr' ||
      (init === 'structExpr' && c.accuInit?.exprKind.value.messageName === '')
    ) {
      this.#sizes.set(idOf(e), rangeCount);
      const stepEntry = c.loopStep === undefined ? undefined : this.#entrySizes.get(idOf(c.loopStep));
      if (stepEntry !== undefined) this.#entrySizes.set(idOf(e), stepEntry);
    }
    return cost;
  }

  /** A one-variable comprehension's variable: a list's items, a map's keys. */
  #pushIterVar(name: string, range: Expr | undefined): void {
    const entry = range === undefined ? undefined : this.#entryOf(range);
    const rangeType = this.#type(range);
    const container = entry?.container ?? (rangeType.k === 'list' ? 'list' : 'map');
    const path = this.#path(range);
    if (container === 'list') {
      this.#push(name, {
        path: [...path, '@items'],
        size: entry?.value,
        entry: undefined,
        type: rangeType.k === 'list' ? rangeType.elem : dyn,
      });
    } else {
      this.#push(name, {
        path: [...path, '@keys'],
        size: entry?.key,
        entry: undefined,
        type: rangeType.k === 'map' ? rangeType.key : dyn,
      });
    }
  }

  #entryOf(e: Expr): EntrySize | undefined {
    const found = this.#entrySizes.get(idOf(e));
    if (found !== undefined) return found;
    if (e.exprKind.case === 'identExpr') return this.#local(e.exprKind.value.name)?.entry;
    return undefined;
  }

  #operand(e: Expr): Operand {
    const path = this.#path(e);
    return {
      path: path.length === 0 || isAccumulator(path[0] ?? '') ? undefined : path,
      type: this.#type(e),
      expr: e,
      size: this.#computeSize(e),
    };
  }

  #call(e: Expr, call: Extract<Expr['exprKind'], { case: 'callExpr' }>['value']): Estimate {
    // `ip.isCanonical(s)` calls the function `ip.isCanonical`: its target names no variable.
    const namespace =
      call.target?.exprKind.case === 'identExpr' ? call.target.exprKind.value.name : undefined;
    const qualified =
      namespace !== undefined && !this.#vars.has(namespace) && this.#local(namespace) === undefined;
    const f = qualified ? `${namespace}.${call.function}` : call.function;
    const callTarget = qualified ? undefined : call.target;
    if (f === 'dyn' && call.args[0] !== undefined) {
      const arg = call.args[0];
      const cost = add(fixed(1), this.cost(arg));
      const size = this.#computeSize(arg);
      if (size !== undefined) this.#sizes.set(idOf(e), size);
      const entry = this.#entryOf(arg);
      if (entry !== undefined) this.#entrySizes.set(idOf(e), entry);
      this.#types.set(idOf(e), dyn);
      return cost;
    }
    const argCosts: Estimate[] = [];
    const args: Operand[] = [];
    for (const arg of call.args) {
      argCosts.push(this.cost(arg));
      args.push(this.#operand(arg));
    }
    const member = callTarget !== undefined;
    let cost = zero;
    let target: Operand | undefined;
    if (callTarget !== undefined) {
      cost = this.cost(callTarget);
      target = this.#operand(callTarget);
    }
    const argTypes = args.map((a) => a.type);
    this.#types.set(idOf(e), resultType(f, target?.type, argTypes));
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
        resultSize = this.#entryOf(container)?.value;
        this.#paths.set(idOf(e), [...this.#path(container), id === 'index_list' ? '@items' : '@values']);
      }
      resultSize ??= this.#computeSize(e);
    }
    if (resultSize !== undefined) this.#sizes.set(idOf(e), resultSize);
    return add(cost, fnCost);
  }

  #functionCost(
    e: Expr,
    c: { f: string; id: string; target: Operand | undefined; args: Operand[]; argCosts: Estimate[] },
  ): CallEstimate {
    const argSum = sum(c.argCosts);
    const withArgs = (est: CallEstimate | undefined): CallEstimate | undefined =>
      est === undefined ? undefined : { ...est, cost: add(est.cost, argSum) };
    return (
      withArgs(this.#setsCost(c.id, c.args)) ??
      withArgs(this.#kubeCallCost(c)) ??
      this.#builtinCost(e, { ...c, argSum }) ?? { cost: add(fixed(1), argSum) }
    );
  }

  /** ext.Sets' estimators: one comparison per pair of elements. */
  #setsCost(id: string, args: Operand[]): CallEstimate | undefined {
    const factor = id === 'list_sets_equivalent_list' ? 2 : id.startsWith('list_sets_') ? 1 : undefined;
    const [a, b] = args;
    if (factor === undefined || a === undefined || b === undefined || args.length !== 2) return undefined;
    const pairs = multiply(this.#kubeSize(a), this.#kubeSize(b));
    return { cost: add(scale(pairs, factor), fixed(1)) };
  }

  /** The host's size of an operand: what was computed, else the schema's bound, else unknown. */
  #kubeSize(n: Operand): Estimate {
    return n.size ?? this.#hostSize(n.path) ?? unknown;
  }

  /** apiextensions' sizeEstimator: {0, MaxElements} of the schema node the path leads to. */
  #hostSize(path: readonly string[] | undefined): Estimate | undefined {
    if (path === undefined || path.length === 0) return undefined;
    let node = this.#root;
    if (node === undefined) return undefined;
    for (const name of path.slice(1)) {
      if (name === '@items' || name === '@values') node = node.elem;
      else if (name === '@keys') node = node.key;
      else node = node.fields?.get(name);
      if (node === undefined) return undefined;
    }
    return { min: 0n, max: BigInt(node.maxElements) };
  }

  /** The element of a list operand, with its path when the list has one (listElementNode). */
  #listElement(list: Operand): Operand | undefined {
    if (list.type.k !== 'list' && list.type.k !== 'map') return undefined;
    const elem = list.type.k === 'list' ? list.type.elem : list.type.key;
    return {
      path: list.path === undefined ? undefined : [...list.path, '@items'],
      type: elem,
      expr: undefined,
      size: undefined,
    };
  }

  /** kube's library estimates (pkg/cel/library/cost.go EstimateCallCost), by function name. */
  #kubeCallCost(c: {
    f: string;
    id: string;
    target: Operand | undefined;
    args: Operand[];
  }): CallEstimate | undefined {
    const { f, target, args } = c;
    const traversal = (n: Operand | undefined): Estimate =>
      scale(n === undefined ? unknown : this.#kubeSize(n), stringTraversalCostFactor);
    const one = { cost: fixed(1) };
    const [a0, a1] = args;
    switch (f) {
      case 'check':
        return { cost: fixed(350000) };
      case 'serviceAccount':
      case 'path':
      case 'group':
      case 'resource':
      case 'subresource':
      case 'namespace':
      case 'name':
      case 'allowed':
      case 'reason':
      case 'error':
      case 'errored':
        return one;
      case 'isSorted':
      case 'sum':
      case 'max':
      case 'min':
      case 'indexOf':
      case 'lastIndexOf': {
        if (target === undefined) return undefined;
        const el = this.#listElement(target);
        if (el === undefined) return { cost: traversal(target) };
        let elCost = fixed(1);
        if (el.type.k === 'string' || el.type.k === 'bytes') elCost = add(elCost, traversal(el));
        return { cost: multiply(this.#kubeSize(target), elCost) };
      }
      case 'url':
      case 'jsonpatch.escapeKey': {
        if (args.length !== 1 || a0 === undefined) return undefined;
        const size = this.#kubeSize(a0);
        return { cost: scale(size, stringTraversalCostFactor), resultSize: size };
      }
      case 'lowerAscii':
      case 'upperAscii':
      case 'substring':
      case 'trim': {
        if (target === undefined) return undefined;
        const size = this.#kubeSize(target);
        return { cost: scale(size, stringTraversalCostFactor), resultSize: size };
      }
      case 'replace':
        return target === undefined || a0 === undefined || a1 === undefined
          ? undefined
          : this.#replaceCost(target, a0, a1);
      case 'split': {
        if (target === undefined) return undefined;
        const size = this.#kubeSize(target);
        let max = size.max;
        const limit = a1?.expr?.exprKind;
        if (limit?.case === 'constExpr' && limit.value.constantKind.case === 'int64Value')
          max = BigInt.asUintN(64, limit.value.constantKind.value);
        return { cost: scale(size, 2 * stringTraversalCostFactor), resultSize: { min: 0n, max } };
      }
      case 'join':
        return target === undefined ? undefined : this.#joinCost(target, a0);
      case 'find':
      case 'findAll': {
        if (target === undefined || a0 === undefined) return undefined;
        const size = this.#kubeSize(target);
        return {
          cost: multiply(
            scale(add(size, fixed(1)), stringTraversalCostFactor),
            scale(this.#kubeSize(a0), regexStringLengthCostFactor),
          ),
          resultSize: { min: 0n, max: size.max },
        };
      }
      case 'cidr':
      case 'isIP':
      case 'isCIDR':
      case 'quantity':
      case 'isQuantity':
      case 'semver':
      case 'isSemver':
        return { cost: traversal(a0) };
      case 'ip':
        if (args.length >= 1) return c.id === 'cidr_ip' ? one : { cost: traversal(a0) };
        return one;
      case 'ip.isCanonical':
        return args.length >= 1
          ? { cost: scale(this.#kubeSize(a0 ?? target ?? noOperand), 2 * stringTraversalCostFactor) }
          : undefined;
      case 'masked':
      case 'prefixLength':
      case 'family':
      case 'isUnspecified':
      case 'isLoopback':
      case 'isLinkLocalMulticast':
      case 'isLinkLocalUnicast':
      case 'isGlobalUnicast':
      case 'format.named':
      case 'sign':
      case 'asInteger':
      case 'isInteger':
      case 'asApproximateFloat':
      case 'isGreaterThan':
      case 'isLessThan':
      case 'compareTo':
      case 'add':
      case 'sub':
      case 'major':
      case 'minor':
      case 'patch':
      case 'getScheme':
      case 'getHostname':
      case 'getHost':
      case 'getPort':
      case 'getEscapedPath':
      case 'getQuery':
        return one;
      case 'containsIP':
      case 'containsCIDR': {
        if (target === undefined || a0 === undefined) return undefined;
        const ipSize = { min: 4n, max: 16n };
        let cost = scale(add(ipSize, ipSize), stringTraversalCostFactor);
        if (f === 'containsCIDR') cost = add(add(cost, scale(ipSize, stringTraversalCostFactor)), fixed(1));
        if (c.id.endsWith('_string')) cost = add(cost, traversal(a0));
        return { cost };
      }
      case 'validate':
        return target === undefined
          ? undefined
          : {
              cost: scale(
                scale(this.#kubeSize(a0 ?? noOperand), stringTraversalCostFactor),
                maxNameFormatRegexSize * regexStringLengthCostFactor,
              ),
            };
      case '_==_':
        return a0 !== undefined && a1 !== undefined ? kubeEquality(a0, a1) : undefined;
      default:
        return undefined;
    }
  }

  #replaceCost(target: Operand, from: Operand, to: Operand): CallEstimate {
    const size = this.#kubeSize(target);
    const fromSize = this.#kubeSize(from);
    const toSize = this.#kubeSize(to);
    let countMax: bigint;
    let countMin: bigint;
    let retainedMax = 0n;
    let retainedMin = 0n;
    if (fromSize.min === 0n) {
      countMax = size.max < maxUint64 ? size.max + 1n : size.max;
      retainedMax = size.max;
    } else if (toSize.max <= fromSize.min) {
      countMax = 0n;
      retainedMax = size.max;
    } else countMax = goFloatToUint(Math.ceil(Number(size.max) / Number(fromSize.min)));
    if (fromSize.max === 0n) {
      countMin = size.min < maxUint64 ? size.min + 1n : size.min;
      retainedMin = size.min;
    } else if (fromSize.max <= toSize.min) {
      countMin = 0n;
      retainedMin = size.min;
    } else countMin = goFloatToUint(Math.ceil(Number(size.min) / Number(fromSize.max)));
    const resultSize = add(multiply({ min: countMin, max: countMax }, toSize), {
      min: retainedMin,
      max: retainedMax,
    });
    return { cost: scale(size, 2 * stringTraversalCostFactor), resultSize };
  }

  #joinCost(target: Operand, separator: Operand | undefined): CallEstimate {
    let size = zero;
    const listSize = this.#kubeSize(target);
    const el = this.#listElement(target);
    if (el !== undefined) size = multiply(listSize, this.#kubeSize(el));
    if (separator !== undefined) {
      const separators = {
        min: listSize.min > 0n ? listSize.min - 1n : 0n,
        max: listSize.max > 0n ? listSize.max - 1n : 0n,
      };
      size = add(size, multiply(this.#kubeSize(separator), separators));
    }
    return { cost: scale(size, stringTraversalCostFactor), resultSize: size };
  }

  /** cel-go's own estimates of its standard functions (functionCost's switch). */
  #builtinCost(
    e: Expr,
    c: { id: string; target: Operand | undefined; args: Operand[]; argCosts: Estimate[]; argSum: Estimate },
  ): CallEstimate | undefined {
    const { id, target, args, argCosts, argSum } = c;
    const [a0, a1, a2] = args;
    const size = (n: Operand | undefined): Estimate => n?.size ?? unknown;
    const traverse = (s: Estimate): Estimate => scale(s, stringTraversalCostFactor);
    switch (id) {
      case 'string_format':
        return target === undefined ? undefined : { cost: add(traverse(size(target)), argSum) };
      case 'string_to_bytes':
      case 'bytes_to_string':
      case 'strings_quote': {
        if (args.length !== 1) return undefined;
        const s = size(a0);
        const resultSize =
          id === 'string_to_bytes'
            ? { min: s.min, max: BigInt.asUintN(64, s.max * 4n) }
            : id === 'bytes_to_string'
              ? { min: s.min / 4n, max: s.max }
              : { min: BigInt.asUintN(64, s.min + 2n), max: BigInt.asUintN(64, s.max * 2n + 2n) };
        return { cost: add(traverse(s), argSum), resultSize };
      }
      case 'starts_with_string':
      case 'ends_with_string':
        return args.length === 1 ? { cost: add(traverse(size(a0)), argSum) } : undefined;
      case 'in_list':
        return args.length === 2 ? { cost: add(scale(size(a1), 1), argSum) } : undefined;
      case 'matches_string':
        if (target === undefined || args.length !== 1) return undefined;
        return {
          cost: add(
            multiply(traverse(add(size(target), fixed(1))), scale(size(a0), regexStringLengthCostFactor)),
            argSum,
          ),
        };
      case 'contains_string':
        if (target === undefined || args.length !== 1) return undefined;
        return { cost: add(multiply(traverse(size(target)), traverse(size(a0))), argSum) };
      case 'logical_and':
      case 'logical_or': {
        const lhs = argCosts[0] ?? zero;
        const rhs = argCosts[1] ?? zero;
        return { cost: { min: lhs.min, max: add(lhs, rhs).max } };
      }
      case 'conditional': {
        const resultSize = union(size(a1), size(a2));
        this.#unionEntrySizes(e, a1, a2);
        const cost = add(argCosts[0] ?? zero, union(argCosts[1] ?? zero, argCosts[2] ?? zero));
        return { cost, resultSize };
      }
      case 'add_string':
      case 'add_bytes':
      case 'add_list': {
        if (args.length !== 2) return undefined;
        const resultSize = add(size(a0), size(a1));
        this.#unionEntrySizes(e, a0, a1);
        const cost = id === 'add_list' ? add(fixed(1), argSum) : add(traverse(resultSize), argSum);
        return { cost, resultSize };
      }
      case 'compare_string':
      case 'compare_bytes':
      case 'equals':
      case 'not_equals': {
        const lhs = size(a0);
        const rhs = size(a1);
        const smallest = rhs.max < lhs.max ? rhs.max : lhs.max;
        return { cost: add(traverse({ min: smallest > 0n ? 1n : 0n, max: smallest }), argSum) };
      }
      default:
        return undefined;
    }
  }

  /** The entry sizes of a value that is one of two operands, or both joined: what either holds. */
  #unionEntrySizes(e: Expr, a: Operand | undefined, b: Operand | undefined): void {
    const first = a?.expr === undefined ? undefined : this.#entryOf(a.expr);
    const second = b?.expr === undefined ? undefined : this.#entryOf(b.expr);
    if (first === undefined || second === undefined) return;
    this.#entrySizes.set(idOf(e), {
      container: first.container,
      key: union(first.key, second.key),
      value: union(first.value, second.value),
    });
  }

  #sizeOrUnknown(e: Expr | undefined): Estimate {
    return (e === undefined ? undefined : this.#computeSize(e)) ?? unknown;
  }

  /** cel-go's computeSize: what was computed, a literal's, the schema's, a scalar's, a variable's. */
  #computeSize(e: Expr): Estimate | undefined {
    const id = idOf(e);
    const known = this.#sizes.get(id);
    if (known !== undefined) return known;
    const literal = literalSize(e);
    if (literal !== undefined) return literal;
    const host = this.#hostSize(this.#path(e));
    if (host !== undefined) {
      this.#sizes.set(id, host);
      return host;
    }
    const type = this.#type(e);
    if (['bool', 'double', 'duration', 'int', 'timestamp', 'uint'].includes(type.k)) return fixed(1);
    if (e.exprKind.case === 'identExpr') return this.#local(e.exprKind.value.name)?.size;
    return undefined;
  }
}

const noOperand: Operand = { path: undefined, type: dyn, expr: undefined, size: undefined };

/** Go's uint64(f) for a non-negative float: values past the range saturate here, not in Go. */
function goFloatToUint(f: number): bigint {
  if (!Number.isFinite(f) || f >= 2 ** 64) return maxUint64;
  return BigInt(f);
}

/** kube's equality of its library's types, each compared at a fixed cost. */
function kubeEquality(a: Operand, b: Operand): CallEstimate | undefined {
  if (!sameType(a.type, b.type)) return undefined;
  const t = a.type;
  if (t.k === 'opaque' && (t.name === 'net.IP' || t.name === 'net.CIDR')) return { cost: fixed(1) };
  if (t.k !== 'struct') return undefined;
  switch (t.name) {
    case 'kubernetes.Quantity':
    case 'kubernetes.Semver':
      return { cost: fixed(1) };
    case 'kubernetes.NamedFormat':
      return { cost: scale({ min: 1n, max: 64n }, stringTraversalCostFactor) };
    case 'kubernetes.URL': {
      // kube's estimator takes both sizes from the right-hand operand.
      const size = b.size === undefined ? fixed(1) : b.size;
      return { cost: scale({ min: 1n, max: size.max }, stringTraversalCostFactor) };
    }
    default:
      return undefined;
  }
}

const constType = (kind: string | undefined): CelType => scalar(constantKind(kind));

/** A field of an object or a map's value; dyn when the type does not say. */
function fieldType(on: CelType, field: string): CelType {
  if (on.k === 'struct') return on.decl === undefined ? dyn : declCelType(on.decl.fields?.get(field));
  if (on.k === 'map') return on.value;
  return dyn;
}

/** A literal's size: a string's runes, bytes' bytes, 1 for other scalars, a list's or map's entries. */
function literalSize(e: Expr): Estimate | undefined {
  const k = e.exprKind;
  if (k.case === 'constExpr') {
    const c = k.value.constantKind;
    if (c.case === 'stringValue') return fixed(runeCount(c.value));
    if (c.case === 'bytesValue') return fixed(c.value.length);
    return c.case === undefined ? undefined : fixed(1);
  }
  if (k.case === 'listExpr') return fixed(k.value.elements.length);
  if (k.case === 'structExpr' && k.value.messageName === '') return fixed(k.value.entries.length);
  return undefined;
}

/** A string's code points (Go's []rune of it): a surrogate pair is one. */
function runeCount(s: string): number {
  let pairs = 0;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return s.length - pairs;
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
