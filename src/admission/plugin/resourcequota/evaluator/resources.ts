// Resource list arithmetic of quota (pkg/quota/v1/resources.go): sums, differences, masks, the
// "less than or equal" test that names what exceeds, and the texts kube prints lists with.
import {
  addQuantities,
  compareQuantities,
  quantitySign,
  quantityString,
  type Quantity,
} from '../../../../machinery/quantity/quantity.js';
import { amountsOf, type ResourceAmounts } from '../../pod-resources.js';

export { amountsOf, type ResourceAmounts };

const negate = (q: Quantity): Quantity => ({ unscaled: -q.unscaled, exponent: q.exponent, format: q.format });

/** Every member with its sign turned (a refund of a charge). */
export const negateAmounts = (a: ResourceAmounts): ResourceAmounts =>
  new Map([...a].map(([name, q]) => [name, negate(q)]));

/** quota.Add. */
export function addAmounts(a: ResourceAmounts, b: ResourceAmounts): ResourceAmounts {
  const out: ResourceAmounts = new Map(a);
  for (const [name, q] of b) {
    const have = out.get(name);
    out.set(name, have === undefined ? q : addQuantities(have, q));
  }
  return out;
}

/** quota.SubtractWithNonNegativeResult. */
export function subtractNonNegative(a: ResourceAmounts, b: ResourceAmounts): ResourceAmounts {
  const out: ResourceAmounts = new Map();
  for (const [name, q] of a) {
    const other = b.get(name);
    const diff = other === undefined ? q : addQuantities(q, negate(other));
    out.set(name, quantitySign(diff) < 0 ? { unscaled: 0n, exponent: 0, format: q.format } : diff);
  }
  for (const name of b.keys())
    if (!out.has(name)) out.set(name, { unscaled: 0n, exponent: 0, format: 'DecimalSI' });
  return out;
}

/** quota.Mask: only the named members. */
export function maskAmounts(a: ResourceAmounts, names: Iterable<string>): ResourceAmounts {
  const out: ResourceAmounts = new Map();
  for (const name of names) {
    const q = a.get(name);
    if (q !== undefined) out.set(name, q);
  }
  return out;
}

/** quota.IsZero. */
export const isZeroAmounts = (a: ResourceAmounts): boolean =>
  [...a.values()].every((q) => quantitySign(q) === 0);

/** quota.LessThanOrEqual: the names of a above b's bound (a name b does not bound is no limit). */
export function exceededNames(a: ResourceAmounts, b: ResourceAmounts): string[] {
  const out: string[] = [];
  for (const [name, q] of a) {
    const bound = b.get(name);
    if (bound !== undefined && compareQuantities(q, bound) > 0) out.push(name);
  }
  return out;
}

/** quota.Equals over the texts kube would write. */
export function equalAmounts(a: ResourceAmounts, b: ResourceAmounts): boolean {
  if (a.size !== b.size) return false;
  for (const [name, q] of a) {
    const other = b.get(name);
    if (other === undefined || compareQuantities(q, other) !== 0) return false;
  }
  return true;
}

/** The ResourceList JSON of amounts, as Quantity.String() writes them, by name. */
export function resourceList(a: ResourceAmounts): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, q] of [...a].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
    out[name] = quantityString(q);
  return out;
}

/** prettyPrint: `name=value` by name, joined by commas. */
export const prettyPrint = (a: ResourceAmounts): string =>
  Object.entries(resourceList(a))
    .map(([name, text]) => `${name}=${text}`)
    .join(',');

/** The quantity 1 (each object a count quota counts). */
export const one: Quantity = { unscaled: 1n, exponent: 0, format: 'DecimalSI' };

export const quantityOf = (n: number): Quantity => ({
  unscaled: BigInt(n),
  exponent: 0,
  format: 'DecimalSI',
});
