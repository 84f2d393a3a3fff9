// cel-go's estimates of its standard functions and of the sets extension (checker/cost.go's
// functionCost, ext/sets.go), from the operands' sizes and costs; cost.ts asks them after kube's.
import {
  add,
  fixed,
  multiply,
  regexStringLengthCostFactor,
  scale,
  stringTraversalCostFactor,
  union,
  unknown,
  zero,
  type Estimate,
} from './cost-estimate.js';
import type { OperandSizes } from './cost-kube.js';
import type { CallEstimate, Operand } from './cost-types.js';

/** An estimate, and the operands whose entry sizes the result joins. */
export interface BuiltinEstimate extends CallEstimate {
  readonly joinEntries?: readonly [Operand | undefined, Operand | undefined];
}

/** ext.Sets' estimators: one comparison per pair of elements. */
export function setsCost(sizes: OperandSizes, id: string, args: Operand[]): CallEstimate | undefined {
  const factor = id === 'list_sets_equivalent_list' ? 2 : id.startsWith('list_sets_') ? 1 : undefined;
  const [a, b] = args;
  if (factor === undefined || a === undefined || b === undefined || args.length !== 2) return undefined;
  const pairs = multiply(sizes.size(a), sizes.size(b));
  return { cost: add(scale(pairs, factor), fixed(1)) };
}

/**
 * cel-go's own estimates of its standard functions (functionCost's switch). `joinEntries` names the
 * operands whose entry sizes the result's are the union of (a conditional's branches, a sum's terms).
 */
export function builtinCost(c: {
  id: string;
  target: Operand | undefined;
  args: Operand[];
  argCosts: Estimate[];
  argSum: Estimate;
}): BuiltinEstimate | undefined {
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
      const cost = add(argCosts[0] ?? zero, union(argCosts[1] ?? zero, argCosts[2] ?? zero));
      return { cost, resultSize, joinEntries: [a1, a2] };
    }
    case 'add_string':
    case 'add_bytes':
    case 'add_list': {
      if (args.length !== 2) return undefined;
      const resultSize = add(size(a0), size(a1));
      const cost = id === 'add_list' ? add(fixed(1), argSum) : add(traverse(resultSize), argSum);
      return { cost, resultSize, joinEntries: [a0, a1] };
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
