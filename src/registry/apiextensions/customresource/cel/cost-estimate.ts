// Size and cost estimates as cel-go counts them (checker/cost.go): pairs of unsigned 64-bit
// integers whose arithmetic saturates at 2^64 - 1 instead of wrapping, and whose scaling by a
// fractional factor rounds up. kube compares the maxima with its limits, so the numbers must be
// cel-go's to the unit.

export const maxUint64 = (1n << 64n) - 1n;

// cel-go's common/cost.go: what walking a string costs per character, matching a regular
// expression per character of its pattern.
export const stringTraversalCostFactor = 0.1;
export const regexStringLengthCostFactor = 0.25;
const twoTo64 = 2 ** 64;

/** A range of sizes or costs, both ends within [0, 2^64 - 1]. */
export interface Estimate {
  readonly min: bigint;
  readonly max: bigint;
}

export const fixed = (n: bigint | number): Estimate => ({ min: BigInt(n), max: BigInt(n) });
export const zero: Estimate = fixed(0);
export const unknown: Estimate = { min: 0n, max: maxUint64 };

function addSat(x: bigint, y: bigint): bigint {
  const sum = x + y;
  return sum > maxUint64 ? maxUint64 : sum;
}

function mulSat(x: bigint, y: bigint): bigint {
  const product = x * y;
  return product > maxUint64 ? maxUint64 : product;
}

/** cel-go's multiplyByCostFactor: in float64, rounded up, saturating. */
function scaleSat(x: bigint, factor: number): bigint {
  const xf = Number(x);
  if (xf > 0 && factor > 0 && xf > twoTo64 / factor) return maxUint64;
  const up = Math.ceil(xf * factor);
  return up >= twoTo64 ? maxUint64 : BigInt(up);
}

export const add = (a: Estimate, b: Estimate): Estimate => ({
  min: addSat(a.min, b.min),
  max: addSat(a.max, b.max),
});

export const multiply = (a: Estimate, b: Estimate): Estimate => ({
  min: mulSat(a.min, b.min),
  max: mulSat(a.max, b.max),
});

export const scale = (a: Estimate, factor: number): Estimate => ({
  min: scaleSat(a.min, factor),
  max: scaleSat(a.max, factor),
});

export const union = (a: Estimate, b: Estimate): Estimate => ({
  min: a.min < b.min ? a.min : b.min,
  max: a.max > b.max ? a.max : b.max,
});

/** The sum of estimates. */
export const sum = (all: readonly Estimate[]): Estimate => all.reduce(add, zero);

/** x × y saturating, as kube multiplies a rule's cost by how often it can run. */
export const multiplySaturating = mulSat;
