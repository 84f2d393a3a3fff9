// labels.Parse: selector syntax to a precompiled Selector.
import type { FieldPath } from '../validation/index.js';
import { parseToRequirements } from './parser.js';
import { Selector } from './selector.js';

export type ParseSelectorResult =
  { readonly ok: true; readonly selector: Selector } | { readonly ok: false; readonly message: string };

/**
 * Parses `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`, `a>1`, `a<2`, joined by
 * commas. An empty string selects everything. A failure carries kube's message, which the
 * API server returns in a 400.
 */
export function parseSelector(selector: string, path?: FieldPath): ParseSelectorResult {
  const parsed = parseToRequirements(selector, path);
  if (!parsed.ok) return parsed;
  return { ok: true, selector: Selector.of(parsed.requirements) };
}
