// resource.Quantity values for validation, exact (bigint), from the text a decoded object holds.
// The decoder has already canonicalized well-formed quantities; text that does not parse yields
// undefined here, which each caller reports in its own words.
import {
  compareQuantities,
  mustParseQuantity,
  parseQuantity,
  type Quantity,
} from '../../../machinery/quantity/quantity.js';

export {
  addQuantities,
  approximateFloat,
  compareQuantities,
  isIntegerQuantity,
  milliValue,
  quantitySign,
  roundUpToScale,
  type Quantity,
} from '../../../machinery/quantity/quantity.js';

/** The quantity a text holds, undefined when it is no quantity. */
export function quantityOf(text: string): Quantity | undefined {
  const parsed = parseQuantity(text);
  return parsed.ok ? parsed.quantity : undefined;
}

/** a.Cmp(b) for two quantity texts; undefined when either does not parse. */
export function compareQuantityText(a: string, b: string): -1 | 0 | 1 | undefined {
  const [x, y] = [quantityOf(a), quantityOf(b)];
  return x === undefined || y === undefined ? undefined : compareQuantities(x, y);
}

/** MaxMilliValue: the largest value whose MilliValue fits an int64. */
export const maxMilliValue = mustParseQuantity('9223372036854775');
