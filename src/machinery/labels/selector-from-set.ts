// Selectors that match a label set exactly (SelectorFromSet, ValidatedSelectorFromSet).
import { compareGoStrings } from '../validation/index.js';
import type { Labels } from './compile-requirement.js';
import { newRequirement, type Requirement } from './requirement.js';
import { Selector } from './selector.js';

/** Requires every label of `set` with its value; no validation. An empty set selects everything. */
export function selectorFromSet(set: Labels | undefined): Selector {
  const keys = Object.keys(set ?? {}).sort(compareGoStrings);
  return Selector.of(keys.map((key) => ({ key, operator: '=', values: [set?.[key] ?? ''] })));
}

export type ValidatedSelectorFromSetResult =
  { readonly ok: true; readonly selector: Selector } | { readonly ok: false; readonly message: string };

/** As `selectorFromSet`, refusing invalid keys and values with kube's message. */
export function validatedSelectorFromSet(set: Labels | undefined): ValidatedSelectorFromSetResult {
  const requirements: Requirement[] = [];
  for (const key of Object.keys(set ?? {}).sort(compareGoStrings)) {
    const result = newRequirement({ key, operator: '=', values: [set?.[key] ?? ''] });
    if (!result.ok) return { ok: false, message: result.error.error() };
    requirements.push(result.requirement);
  }
  return { ok: true, selector: Selector.of(requirements) };
}
