// SetDefaults_ResourceList (pkg/apis/core/v1/defaults.go): every quantity of a ResourceList is
// rounded up (away from zero) to milli scale, so `0.0001` becomes `1m`. Quantities already at milli
// scale or coarser keep their text; a rounded one is written back in its canonical form.
import { parseQuantity, quantityString, roundUpToScale } from './quantity.js';

const milliScale = -3;

/** Rounds each quantity of the list up to milli scale, in place. Unparseable values are left to validation. */
export function roundUpResourceList(list: Record<string, string> | undefined): void {
  if (list === undefined) return;
  for (const [name, text] of Object.entries(list)) {
    if (typeof text !== 'string') continue;
    const parsed = parseQuantity(text);
    if (!parsed.ok || parsed.quantity.exponent >= milliScale) continue;
    list[name] = quantityString(roundUpToScale(parsed.quantity, milliScale));
  }
}
