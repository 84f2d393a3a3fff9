// validateAffinity (pkg/apis/core/validation): node affinity's required selector and its weighted
// preferences; pod affinity's and anti-affinity's terms, required and weighted: their label and
// namespace selectors, namespaces, matchLabelKeys and mismatchLabelKeys, and a topology key that is
// a label name. Field paths and texts as kube's, `namespace` (singular) for a term's namespaces
// included.
import type { Affinity, PodAffinityTerm, WeightedPodAffinityTerm } from '../../../../api/core/v1/affinity.js';
import type { LabelSelector } from '../../../../api/meta/v1/label-selector.js';
import {
  validateLabelSelector,
  type LabelSelectorValidationOptions,
} from '../../../../machinery/labels/validate-label-selector.js';
import {
  FieldError,
  validateLabelName,
  validateNamespaceName,
  type ErrorList,
  FieldPath,
} from '../../../../machinery/validation/index.js';
import { validateNodeSelector, validateNodeSelectorTerm } from '../../persistentvolume/volume-source.js';

const weightInRange = (weight: number | undefined): boolean =>
  weight !== undefined && weight > 0 && weight <= 100;

export function validateAffinity(
  affinity: Affinity | undefined,
  path: FieldPath,
  selectors: LabelSelectorValidationOptions = {},
): ErrorList {
  if (affinity === undefined) return [];
  const errs: ErrorList = [];
  const node = affinity.nodeAffinity;
  if (node !== undefined) {
    const at = path.child('nodeAffinity');
    const required = node.requiredDuringSchedulingIgnoredDuringExecution;
    if (required !== undefined)
      errs.push(
        ...validateNodeSelector(required, at.child('requiredDuringSchedulingIgnoredDuringExecution')),
      );
    (node.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((term, i) => {
      const tp = at.child('preferredDuringSchedulingIgnoredDuringExecution').index(i);
      if (!weightInRange(term.weight))
        errs.push(FieldError.invalid(tp.child('weight'), term.weight ?? 0, 'must be in the range 1-100'));
      errs.push(...validateNodeSelectorTerm(term.preference ?? {}, tp.child('preference')));
    });
  }
  for (const kind of ['podAffinity', 'podAntiAffinity'] as const) {
    const terms = affinity[kind];
    if (terms === undefined) continue;
    const at = path.child(kind);
    (terms.requiredDuringSchedulingIgnoredDuringExecution ?? []).forEach((term, i) => {
      errs.push(
        ...validatePodAffinityTerm(
          term,
          at.child('requiredDuringSchedulingIgnoredDuringExecution').index(i),
          selectors,
        ),
      );
    });
    (terms.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((w: WeightedPodAffinityTerm, i) => {
      const wp = at.child('preferredDuringSchedulingIgnoredDuringExecution').index(i);
      if (!weightInRange(w.weight))
        errs.push(FieldError.invalid(wp.child('weight'), w.weight ?? 0, 'must be in the range 1-100'));
      errs.push(...validatePodAffinityTerm(w.podAffinityTerm ?? {}, wp.child('podAffinityTerm'), selectors));
    });
  }
  return errs;
}

function validatePodAffinityTerm(
  term: PodAffinityTerm,
  at: FieldPath,
  selectors: LabelSelectorValidationOptions,
): ErrorList {
  const errs = [
    ...validateLabelSelector(term.labelSelector, at.child('labelSelector'), selectors),
    ...validateLabelSelector(term.namespaceSelector, at.child('namespaceSelector'), selectors),
  ];
  for (const name of term.namespaces ?? [])
    for (const msg of validateNamespaceName(name, false))
      errs.push(FieldError.invalid(at.child('namespace'), name, msg));
  errs.push(...validateLabelKeys(term, at));
  const key = term.topologyKey ?? '';
  if (key === '') errs.push(FieldError.required(at.child('topologyKey'), 'can not be empty'));
  errs.push(...validateLabelName(key, at.child('topologyKey')));
  return errs;
}

/** validateMatchLabelKeysAndMismatchLabelKeys, over the selector the create merged them into. */
function validateLabelKeys(term: PodAffinityTerm, at: FieldPath): ErrorList {
  const match = term.matchLabelKeys ?? [];
  const mismatch = term.mismatchLabelKeys ?? [];
  const selector = term.labelSelector;
  const errs = [
    ...keysAreLabelNames(match, selector, at.child('matchLabelKeys')),
    ...keysAreLabelNames(mismatch, selector, at.child('mismatchLabelKeys')),
  ];
  if (selector !== undefined) {
    const index = new Map(match.map((key, i) => [key, i]));
    const seen = new Set(Object.keys(selector.matchLabels ?? {}));
    for (const { key } of selector.matchExpressions ?? []) {
      const i = index.get(key);
      // kube's path here is the term's, indexed by the key's place in matchLabelKeys.
      if (i !== undefined && seen.has(key))
        errs.push(FieldError.invalid(at.index(i), key, 'exists in both matchLabelKeys and labelSelector'));
      seen.add(key);
    }
  }
  const mismatched = new Set(mismatch);
  match.forEach((key, i) => {
    if (mismatched.has(key))
      errs.push(
        FieldError.invalid(
          at.child('matchLabelKeys').index(i),
          key,
          'exists in both matchLabelKeys and mismatchLabelKeys',
        ),
      );
  });
  return errs;
}

function keysAreLabelNames(
  keys: readonly string[],
  selector: LabelSelector | undefined,
  at: FieldPath,
): ErrorList {
  if (keys.length === 0) return [];
  if (selector === undefined)
    return [FieldError.forbidden(at, 'must not be specified when labelSelector is not set')];
  return keys.flatMap((key, i) => validateLabelName(key, at.index(i)));
}

/**
 * kube's PrepareForCreate (mutatePodAffinity, MatchLabelKeysInPodAffinity on in 1.33): each pod
 * affinity or anti-affinity term with a labelSelector gets `key In (value)` for its matchLabelKeys
 * and `key NotIn (value)` for its mismatchLabelKeys, for the keys the pod's own labels have.
 */
export function mergeAffinityLabelKeys(
  affinity: Affinity | undefined,
  labels: Readonly<Record<string, string>>,
): void {
  if (affinity === undefined) return;
  for (const kind of ['podAffinity', 'podAntiAffinity'] as const) {
    const terms = affinity[kind];
    if (terms === undefined) continue;
    for (const w of terms.preferredDuringSchedulingIgnoredDuringExecution ?? [])
      if (w.podAffinityTerm !== undefined) mergeTerm(w.podAffinityTerm, labels);
    for (const term of terms.requiredDuringSchedulingIgnoredDuringExecution ?? []) mergeTerm(term, labels);
  }
}

function mergeTerm(term: PodAffinityTerm, labels: Readonly<Record<string, string>>): void {
  const selector = term.labelSelector;
  const match = term.matchLabelKeys ?? [];
  const mismatch = term.mismatchLabelKeys ?? [];
  if (selector === undefined || (match.length === 0 && mismatch.length === 0)) return;
  const added = [
    ...match
      .filter((k) => Object.hasOwn(labels, k))
      .map((key) => ({ key, operator: 'In', values: [labels[key] ?? ''] })),
    ...mismatch
      .filter((k) => Object.hasOwn(labels, k))
      .map((key) => ({ key, operator: 'NotIn', values: [labels[key] ?? ''] })),
  ];
  if (added.length > 0) selector.matchExpressions = [...(selector.matchExpressions ?? []), ...added];
}

/**
 * hasInvalidLabelValueInAffinitySelector: whether a pod affinity or anti-affinity term's label or
 * namespace selector holds a value that is not a label value. Such a pod, stored before kube checked
 * the values, may still be updated (AllowInvalidLabelValueInSelector).
 */
export function hasInvalidAffinitySelectorValue(affinity: Affinity | undefined): boolean {
  for (const kind of ['podAffinity', 'podAntiAffinity'] as const) {
    const terms = affinity?.[kind];
    const all = [
      ...(terms?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
      ...(terms?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((w) => w.podAffinityTerm ?? {}),
    ];
    for (const term of all)
      for (const selector of [term.labelSelector, term.namespaceSelector])
        if (validateLabelSelector(selector, FieldPath.of('')).length > 0) return true;
  }
  return false;
}
