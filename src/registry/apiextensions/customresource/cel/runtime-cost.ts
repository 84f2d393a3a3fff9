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

/** cel-go's string and byte functions whose cost grows with their operands (costCall's switch). */
function builtinCallCost(cel: Module, name: string, args: readonly unknown[]): number | undefined {
  const [a0, a1] = args;
  switch (name) {
    case 'startsWith':
    case 'endsWith':
      // kube 1.33's cel-go charges a traversal of the string tested (its own cost tests).
      return args.length === 2 ? traversal(cel, a0) : undefined;
    case 'bytes':
      return args.length === 1 && typeof a0 === 'string' ? traversal(cel, a0) : undefined;
    case 'string':
      return args.length === 1 && a0 instanceof Uint8Array ? traversal(cel, a0) : undefined;
    case 'strings.quote':
    case 'format':
      return traversal(cel, a0);
    case '@in':
      return cel.isCelList(a1) ? a1.size : undefined;
    case '_<_':
    case '_>_':
    case '_<=_':
    case '_>=_':
      return textual(a0) ? smallerTraversal(cel, a0, a1) : undefined;
    case '_==_':
    case '_!=_':
      return smallerTraversal(cel, a0, a1);
    case '_+_':
      return textual(a0)
        ? scaled(actualSize(cel, a0) + actualSize(cel, a1), stringTraversalCostFactor)
        : undefined;
    case 'matches':
      return regexCost(cel, a0, a1);
    case 'contains':
      return typeof a0 === 'string' ? traversal(cel, a0) * traversal(cel, a1) : undefined;
    case 'sets.contains':
    case 'sets.intersects':
      return actualSize(cel, a0) * actualSize(cel, a1) + 1;
    case 'sets.equivalent':
      return 2 * actualSize(cel, a0) * actualSize(cel, a1) + 1;
    default:
      return undefined;
  }
}

/** kube's CallCost, by function name; undefined where cel-go's own rule applies. */
function kubeCallCost(
  cel: Module,
  c: { name: string; args: readonly unknown[]; result: unknown },
): number | undefined {
  const { name, args } = c;
  const [a0, a1] = args;
  switch (name) {
    case 'check':
      return 350_000;
    case 'fieldSelector':
    case 'labelSelector': {
      // kube's selectorCostEstimate over the selector's length (its second argument).
      const length = actualSize(cel, a1);
      return 10 + scaled(length, stringTraversalCostFactor) + scaled(scaled(length, 0.5), 50);
    }
    case 'isSorted':
    case 'sum':
    case 'max':
    case 'min':
    case 'indexOf':
    case 'lastIndexOf':
      return args.length > 0 ? traversalCost(cel, a0) : 0;
    case 'url':
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim':
    case 'jsonpatch.escapeKey':
    case 'cidr':
    case 'isIP':
    case 'isCIDR':
    case 'quantity':
    case 'isQuantity':
    case 'semver':
    case 'isSemver':
      return args.length >= 1 ? traversal(cel, a0) : undefined;
    case 'ip':
      // A CIDR's ip() reads a field; ip(string) parses.
      return typeof a0 === 'string' ? traversal(cel, a0) : 1;
    case 'ip.isCanonical':
    case 'replace':
    case 'split':
      return args.length >= 1 ? traversal(cel, a0, 2) : undefined;
    case 'join':
      return traversal(cel, c.result, 2);
    case 'find':
    case 'findAll':
      return args.length >= 2 ? regexCost(cel, a0, a1) : undefined;
    case 'containsIP':
    case 'containsCIDR': {
      if (args.length < 2) return undefined;
      const cidr = actualSize(cel, a0);
      let cost = scaled(cidr + cidr, stringTraversalCostFactor);
      if (name === 'containsCIDR') cost += scaled(cidr, stringTraversalCostFactor) + 1;
      if (typeof a1 === 'string') cost += traversal(cel, a1);
      return cost;
    }
    case 'validate':
      return args.length >= 2
        ? scaled(1 + actualSize(cel, a1), stringTraversalCostFactor) *
            scaled(maxFormatRegexSize, regexStringLengthCostFactor)
        : undefined;
    default:
      return undefined;
  }
}

// The functions whose cost can be other than 1: the cases of the two switches above.
const sized = new Set([
  'startsWith',
  'endsWith',
  'bytes',
  'string',
  'strings.quote',
  'format',
  '@in',
  '_<_',
  '_>_',
  '_<=_',
  '_>=_',
  '_==_',
  '_!=_',
  '_+_',
  'matches',
  'contains',
  'sets.contains',
  'sets.intersects',
  'sets.equivalent',
  'check',
  'fieldSelector',
  'labelSelector',
  'isSorted',
  'sum',
  'max',
  'min',
  'indexOf',
  'lastIndexOf',
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
  'ip',
  'ip.isCanonical',
  'replace',
  'split',
  'join',
  'find',
  'findAll',
  'containsIP',
  'containsCIDR',
  'validate',
]);

/** Whether a call of `name` may cost other than 1 (every other call costs 1). */
export function sizedCost(name: string): boolean {
  return sized.has(name);
}

/**
 * The cost of one call of `name` over `args` (a method's target first) that gave `result`: kube's
 * rule, else cel-go's, else 1.
 */
export function callCost(
  cel: Module,
  c: { name: string; args: readonly unknown[]; result: unknown },
): number {
  return kubeCallCost(cel, c) ?? builtinCallCost(cel, c.name, c.args) ?? 1;
}
