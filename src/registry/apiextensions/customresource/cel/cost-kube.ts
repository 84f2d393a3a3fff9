// kube's estimates of its CEL library's functions (k8s.io/apiserver pkg/cel/library/cost.go,
// EstimateCallCost), which cel-go's estimator (cost.ts) asks before its own: by function name, from
// the sizes of the operands (the host's sizes when an operand has none computed).
import {
  add,
  fixed,
  maxUint64,
  multiply,
  regexStringLengthCostFactor,
  scale,
  stringTraversalCostFactor,
  unknown,
  zero,
  type Estimate,
} from './cost-estimate.js';
import { dyn, sameType, type CallEstimate, type Operand } from './cost-types.js';

// kube's format library: the longest named format's pattern (MaxNameFormatRegexSize).
const maxNameFormatRegexSize = 128;

/** The size of an operand as kube's estimator takes it: computed, else the schema's, else unknown. */
export interface OperandSizes {
  size(n: Operand): Estimate;
}

/** The element of a list operand, with its path when the list has one (listElementNode). */
export function listElement(list: Operand): Operand | undefined {
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
export function kubeCallCost(
  sizes: OperandSizes,
  c: {
    f: string;
    id: string;
    target: Operand | undefined;
    args: Operand[];
  },
): CallEstimate | undefined {
  const { f, target, args } = c;
  const traversal = (n: Operand | undefined): Estimate =>
    scale(n === undefined ? unknown : sizes.size(n), stringTraversalCostFactor);
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
    case 'fieldSelector':
    case 'labelSelector':
      return a0 === undefined ? undefined : { cost: selectorCost(sizes.size(a0)) };
    case 'isSorted':
    case 'sum':
    case 'max':
    case 'min':
    case 'indexOf':
    case 'lastIndexOf': {
      if (target === undefined) return undefined;
      const el = listElement(target);
      if (el === undefined) return { cost: traversal(target) };
      let elCost = fixed(1);
      if (el.type.k === 'string' || el.type.k === 'bytes') elCost = add(elCost, traversal(el));
      return { cost: multiply(sizes.size(target), elCost) };
    }
    case 'url':
    case 'jsonpatch.escapeKey': {
      if (args.length !== 1 || a0 === undefined) return undefined;
      const size = sizes.size(a0);
      return { cost: scale(size, stringTraversalCostFactor), resultSize: size };
    }
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim': {
      if (target === undefined) return undefined;
      const size = sizes.size(target);
      return { cost: scale(size, stringTraversalCostFactor), resultSize: size };
    }
    case 'replace':
      return target === undefined || a0 === undefined || a1 === undefined
        ? undefined
        : replaceCost(sizes, { target, from: a0, to: a1 });
    case 'split': {
      if (target === undefined) return undefined;
      const size = sizes.size(target);
      let max = size.max;
      const limit = a1?.expr?.exprKind;
      if (limit?.case === 'constExpr' && limit.value.constantKind.case === 'int64Value')
        max = BigInt.asUintN(64, limit.value.constantKind.value);
      return { cost: scale(size, 2 * stringTraversalCostFactor), resultSize: { min: 0n, max } };
    }
    case 'join':
      return target === undefined ? undefined : joinCost(sizes, target, a0);
    case 'find':
    case 'findAll': {
      if (target === undefined || a0 === undefined) return undefined;
      const size = sizes.size(target);
      return {
        cost: multiply(
          scale(add(size, fixed(1)), stringTraversalCostFactor),
          scale(sizes.size(a0), regexStringLengthCostFactor),
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
        ? { cost: scale(sizes.size(a0 ?? target ?? noOperand), 2 * stringTraversalCostFactor) }
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
              scale(sizes.size(a0 ?? noOperand), stringTraversalCostFactor),
              maxNameFormatRegexSize * regexStringLengthCostFactor,
            ),
          };
    case '_==_':
      return a0 !== undefined && a1 !== undefined ? kubeEquality(a0, a1) : undefined;
    default:
      return undefined;
  }
}

function replaceCost(
  sizes: OperandSizes,
  ops: { target: Operand; from: Operand; to: Operand },
): CallEstimate {
  const { target, from, to } = ops;
  const size = sizes.size(target);
  const fromSize = sizes.size(from);
  const toSize = sizes.size(to);
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

function joinCost(sizes: OperandSizes, target: Operand, separator: Operand | undefined): CallEstimate {
  let size = zero;
  const listSize = sizes.size(target);
  const el = listElement(target);
  if (el !== undefined) size = multiply(listSize, sizes.size(el));
  if (separator !== undefined) {
    const separators = {
      min: listSize.min > 0n ? listSize.min - 1n : 0n,
      max: listSize.max > 0n ? listSize.max - 1n : 0n,
    };
    size = add(size, multiply(sizes.size(separator), separators));
  }
  return { cost: scale(size, stringTraversalCostFactor), resultSize: size };
}

/**
 * kube's selectorCostEstimate: a list of requirements (10), a traversal of the selector, and a
 * struct and a list (50) for each requirement, one per two characters at most.
 */
export function selectorCost(length: Estimate): Estimate {
  const requirements = scale(length, 0.5);
  return add(add(fixed(10), scale(length, stringTraversalCostFactor)), scale(requirements, 50));
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
