// metav1.LabelSelector as it arrives in specs, and its conversion to a Selector
// (LabelSelectorAsSelector in k8s.io/apimachinery/pkg/apis/meta/v1/helpers.go).
import { compareGoStrings, goQuote } from '../validation/index.js';
import type { Operator } from './operator.js';
import { newRequirement, type Requirement } from './requirement.js';
import { Selector } from './selector.js';
import type { LabelSelector } from '../../api/meta/v1/label-selector.js';

export type { LabelSelector, LabelSelectorRequirement } from '../../api/meta/v1/label-selector.js';

const operatorOf: Readonly<Record<string, Operator>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

export type LabelSelectorAsSelectorResult =
  { readonly ok: true; readonly selector: Selector } | { readonly ok: false; readonly message: string };

/**
 * A metav1 LabelSelector as a Selector: none selects nothing, an empty one everything.
 * Failures carry kube's message.
 */
const orEmpty = (s: string | undefined): string => s ?? '';

export function labelSelectorAsSelector(ps: LabelSelector | null | undefined): LabelSelectorAsSelectorResult {
  if (ps === null || ps === undefined) return { ok: true, selector: Selector.nothing() };
  const matchLabels = ps.matchLabels ?? {};
  const expressions = ps.matchExpressions ?? [];
  const keys = Object.keys(matchLabels).sort(compareGoStrings);
  if (keys.length + expressions.length === 0) return { ok: true, selector: Selector.everything() };
  const requirements: Requirement[] = [];
  // Kube walks matchLabels in map order; sorted keys make the first reported error stable.
  for (const key of keys) {
    const result = newRequirement({ key, operator: '=', values: [matchLabels[key] ?? ''] });
    if (!result.ok) return { ok: false, message: result.error.error() };
    requirements.push(result.requirement);
  }
  for (const expr of expressions) {
    // A decoded body may lack key or operator: Go sees empty strings.
    const given = orEmpty(expr.operator);
    const operator = Object.hasOwn(operatorOf, given) ? operatorOf[given] : undefined;
    if (operator === undefined) {
      return { ok: false, message: `${goQuote(given)} is not a valid label selector operator` };
    }
    // Kube copies values into a nil slice, so missing or empty values print as `null`.
    const values = expr.values === undefined || expr.values.length === 0 ? null : [...expr.values];
    const result = newRequirement({ key: orEmpty(expr.key), operator, values });
    if (!result.ok) return { ok: false, message: result.error.error() };
    requirements.push(result.requirement);
  }
  return { ok: true, selector: Selector.of(requirements) };
}
