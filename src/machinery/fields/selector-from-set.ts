// Selectors built in code rather than parsed (SelectorFromSet, OneTermEqualSelector, AndSelectors).
import { compareGoStrings } from '../validation/index.js';
import { Selector } from './selector.js';

/** Requires every field of `set` to equal its value, fields sorted. */
export function selectorFromSet(set: Readonly<Record<string, string>> | undefined): Selector {
  const fields = Object.keys(set ?? {}).sort(compareGoStrings);
  return Selector.of(fields.map((field) => ({ field, operator: '=', value: set?.[field] ?? '' })));
}

/** One `field=value` term (kube's OneTermEqualSelector). */
export function oneTermEqualSelector(field: string, value: string): Selector {
  return Selector.of([{ field, operator: '=', value }]);
}

/** The AND of several selectors (kube's AndSelectors). */
export function andSelectors(...selectors: Selector[]): Selector {
  return Selector.of(selectors.flatMap((s) => s.requirements));
}
