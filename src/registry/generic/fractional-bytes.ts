// The byte-count check kube's pod and claim warnings share (pkg/api/pod/warnings.go and
// pkg/api/persistentvolumeclaim/util.go): memory and storage come in whole bytes, so a quantity
// whose MilliValue is no multiple of 1000 names a fraction no kernel or volume can honour.
import { milliValue, parseQuantity, quantityString } from '../../machinery/quantity/quantity.js';
import { goQuote, type FieldPath } from '../../machinery/validation/index.js';

/**
 * Whether the text could hold a fraction: only a decimal point, a sub-unit suffix (m, u, n) or a
 * negative exponent or sign can make one, so "128Mi" and "1G" are settled without parsing.
 */
function mayBeFractional(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // . - m n u
    if (c === 0x2e || c === 0x2d || c === 0x6d || c === 0x6e || c === 0x75) return true;
  }
  return false;
}

/**
 * The canonical text of a byte quantity that is not whole; undefined when it is whole, absent or no
 * quantity at all (validation has refused those already).
 */
export function fractionalBytes(text: string | undefined): string | undefined {
  if (text === undefined || !mayBeFractional(text)) return undefined;
  const parsed = parseQuantity(text);
  if (!parsed.ok) return undefined;
  const q = parsed.quantity;
  // A non-negative exponent is a whole number: the usual case, settled without bigint arithmetic.
  if (q.exponent >= 0 || milliValue(q) % 1000n === 0n) return undefined;
  return quantityString(q);
}

/** The warning for a fractional byte quantity (its canonical text) at `path`. */
export function fractionalBytesWarning(path: FieldPath, canonical: string): string {
  return `${path.toString()}: fractional byte value ${goQuote(canonical)} is invalid, must be an integer`;
}
