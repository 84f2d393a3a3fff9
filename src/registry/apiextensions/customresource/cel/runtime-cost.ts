// What one evaluated function call costs, as cel-go's runtime cost tracker charges it
// (interpreter/runtimecost.go, costCall) after asking kube's library (k8s.io/apiserver pkg/cel/
// library/cost.go, CallCost) and the sets extension: from the sizes of the actual arguments (the
// target first, as cel-go passes it) and, for join, the result. Both estimators mirror these
// formulas (cost-builtin.ts, cost-kube.ts); an estimate bounds what this charges.
import type * as Cel from '@bufbuild/cel';
import { regexStringLengthCostFactor, stringTraversalCostFactor } from './cost-estimate.js';

/** celconfig.PerCallLimit: what one evaluation of one expression may cost. */
export const perCallLimit = 1_000_000;
/** celconfig.RuntimeCELCostBudget: a custom resource's rules, or a policy binding's expressions. */
export const runtimeCostBudget = 10_000_000;
/** celconfig.RuntimeCELCostBudgetMatchConditions: one webhook's or binding's match conditions. */
export const matchConditionsCostBudget = 2_500_000;
/** kube's error when evaluations have spent their budget. */
export const outOfBudget =
  'validation failed due to running out of cost budget, no further validation rules will be run';

/** A format's pattern as kube's CallCost takes it for validate() (format.MaxRegexSize). */
const maxFormatRegexSize = 128;

type Module = typeof Cel;

const isSurrogate = /[\uD800-\uDFFF]/;
const pairs = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/** A string's size to CEL: its code points. */
function codePoints(s: string): number {
  if (!isSurrogate.test(s)) return s.length;
  return s.length - (s.match(pairs)?.length ?? 0);
}

/** cel-go's actualSize: the size of strings, bytes, lists and maps; 1 for any other value. */
export function actualSize(cel: Module, v: unknown): number {
  if (typeof v === 'string') return codePoints(v);
  if (v instanceof Uint8Array) return v.length;
  if (cel.isCelList(v)) return v.size;
  if (cel.isCelMap(v)) return v.size;
  return 1;
}

/** kube's traversalCost: a tenth of each string's bytes, summed over lists and maps. */
function traversalCost(cel: Module, v: unknown): number {
  if (typeof v === 'string') return Math.floor(Buffer.byteLength(v) * stringTraversalCostFactor);
  if (v instanceof Uint8Array) return Math.floor(v.length * stringTraversalCostFactor);
  let sum = 0;
  if (cel.isCelList(v)) {
    for (const item of v) sum += traversalCost(cel, item);
    return sum;
  }
  if (cel.isCelMap(v)) {
    for (const [k, item] of v) sum += traversalCost(cel, k) + traversalCost(cel, item);
    return sum;
  }
  return 1;
}

// The helpers below are module functions, not closures made per call: this runs for every call a
// metered evaluation makes.

function scaled(n: number, factor: number): number {
  return Math.ceil(n * factor);
}

/** A tenth (times `factor`) of a value's size, rounded up: one traversal of a string. */
function traversal(cel: Module, v: unknown, factor = 1): number {
  return scaled(actualSize(cel, v), factor * stringTraversalCostFactor);
}

function textual(v: unknown): boolean {
  return typeof v === 'string' || v instanceof Uint8Array;
}

/** Comparing two values: a traversal of the smaller one. */
function smallerTraversal(cel: Module, a: unknown, b: unknown): number {
  return scaled(Math.min(actualSize(cel, a), actualSize(cel, b)), stringTraversalCostFactor);
}

/** A regular expression over a string: the string's traversal (plus one) times the pattern's length. */
function regexCost(cel: Module, text: unknown, pattern: unknown): number {
  return (
    scaled(1 + actualSize(cel, text), stringTraversalCostFactor) *
    scaled(actualSize(cel, pattern), regexStringLengthCostFactor)
  );
}

/** A call's operands (a method's target first) and its result. */
interface Call {
  readonly args: readonly unknown[];
  readonly result: unknown;
}

/** A function's cost from its call; undefined where the call takes cel-go's default of 1. */
type CostRule = (cel: Module, c: Call) => number | undefined;

/** Each rule under the names of the functions it costs. */
function byName(entries: readonly (readonly [readonly string[], CostRule])[]): Map<string, CostRule> {
  const rules = new Map<string, CostRule>();
  for (const [names, rule] of entries) for (const name of names) rules.set(name, rule);
  return rules;
}

// The functions whose cost grows with their operands: cel-go's costCall switch and kube's CallCost
// (no name is in both). Every other function costs 1. The rules are module functions, not closures
// made per call: they run for every call a metered evaluation makes.
const rules = byName([
  // cel-go: kube 1.33's cel-go charges startsWith a traversal of the string tested (its own cost tests).
  [['startsWith', 'endsWith'], (cel, { args }) => (args.length === 2 ? traversal(cel, args[0]) : undefined)],
  [
    ['bytes'],
    (cel, { args }) =>
      args.length === 1 && typeof args[0] === 'string' ? traversal(cel, args[0]) : undefined,
  ],
  [
    ['string'],
    (cel, { args }) =>
      args.length === 1 && args[0] instanceof Uint8Array ? traversal(cel, args[0]) : undefined,
  ],
  [['strings.quote', 'format'], (cel, { args }) => traversal(cel, args[0])],
  [['@in'], (cel, { args: [, list] }) => (cel.isCelList(list) ? list.size : undefined)],
  [
    ['_<_', '_>_', '_<=_', '_>=_'],
    (cel, { args: [a, b] }) => (textual(a) ? smallerTraversal(cel, a, b) : undefined),
  ],
  [['_==_', '_!=_'], (cel, { args: [a, b] }) => smallerTraversal(cel, a, b)],
  [
    ['_+_'],
    (cel, { args: [a, b] }) =>
      textual(a) ? scaled(actualSize(cel, a) + actualSize(cel, b), stringTraversalCostFactor) : undefined,
  ],
  [['matches'], (cel, { args: [text, pattern] }) => regexCost(cel, text, pattern)],
  [
    ['contains'],
    (cel, { args: [s, sub] }) =>
      typeof s === 'string' ? traversal(cel, s) * traversal(cel, sub) : undefined,
  ],
  [
    ['sets.contains', 'sets.intersects'],
    (cel, { args: [a, b] }) => actualSize(cel, a) * actualSize(cel, b) + 1,
  ],
  [['sets.equivalent'], (cel, { args: [a, b] }) => 2 * actualSize(cel, a) * actualSize(cel, b) + 1],
  // kube's library.
  [['check'], () => 350_000],
  [
    ['fieldSelector', 'labelSelector'],
    (cel, { args: [, selector] }) => {
      // kube's selectorCostEstimate over the selector's length.
      const length = actualSize(cel, selector);
      return 10 + scaled(length, stringTraversalCostFactor) + scaled(scaled(length, 0.5), 50);
    },
  ],
  [
    ['isSorted', 'sum', 'max', 'min', 'indexOf', 'lastIndexOf'],
    (cel, { args }) => (args.length > 0 ? traversalCost(cel, args[0]) : 0),
  ],
  [
    [
      'url',
      'lowerAscii',
      'upperAscii',
      'substring',
      'trim',
      'jsonpatch.escapeKey',
      'cidr',
      'isIP',
      'isCIDR',
      'quantity',
      'isQuantity',
      'semver',
      'isSemver',
    ],
    (cel, { args }) => (args.length >= 1 ? traversal(cel, args[0]) : undefined),
  ],
  // A CIDR's ip() reads a field; ip(string) parses.
  [['ip'], (cel, { args: [a] }) => (typeof a === 'string' ? traversal(cel, a) : 1)],
  [
    ['ip.isCanonical', 'replace', 'split'],
    (cel, { args }) => (args.length >= 1 ? traversal(cel, args[0], 2) : undefined),
  ],
  [['join'], (cel, { result }) => traversal(cel, result, 2)],
  [['find', 'findAll'], (cel, { args }) => (args.length >= 2 ? regexCost(cel, args[0], args[1]) : undefined)],
  [['containsIP'], (cel, { args }) => cidrCost(cel, args, false)],
  [['containsCIDR'], (cel, { args }) => cidrCost(cel, args, true)],
  [
    ['validate'],
    (cel, { args }) =>
      args.length >= 2
        ? scaled(1 + actualSize(cel, args[1]), stringTraversalCostFactor) *
          scaled(maxFormatRegexSize, regexStringLengthCostFactor)
        : undefined,
  ],
]);

/** kube's containsIP and containsCIDR: the prefix compared twice, a CIDR masked once more. */
function cidrCost(cel: Module, args: readonly unknown[], cidr: boolean): number | undefined {
  const [a0, a1] = args;
  if (args.length < 2) return undefined;
  const size = actualSize(cel, a0);
  let cost = scaled(size + size, stringTraversalCostFactor);
  if (cidr) cost += scaled(size, stringTraversalCostFactor) + 1;
  if (typeof a1 === 'string') cost += traversal(cel, a1);
  return cost;
}

/** Whether a call of `name` may cost other than 1 (every other call costs 1). */
export function sizedCost(name: string): boolean {
  return rules.has(name);
}

/**
 * The cost of one call of `name` over `args` (a method's target first) that gave `result`: kube's
 * rule or cel-go's, else 1.
 */
export function callCost(
  cel: Module,
  c: { name: string; args: readonly unknown[]; result: unknown },
): number {
  return rules.get(c.name)?.(cel, c) ?? 1;
}
