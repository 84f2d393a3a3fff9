// validateTopologySpreadConstraints (pkg/apis/core/validation), in kube's order: a positive maxSkew, a
// topology key, a known whenUnsatisfiable, no later constraint on the same key and action, minDomains
// only above zero and with DoNotSchedule, known node policies, matchLabelKeys that are label names
// outside the selector, and the selector itself.
import type { PodSpec } from '../../../../api/core/v1/pod.js';
import type { LabelSelector } from '../../../../api/meta/v1/label-selector.js';
import { validateLabelSelector } from '../../../../machinery/labels/validate-label-selector.js';
import {
  FieldError,
  validateLabelName,
  type ErrorList,
  FieldPath,
} from '../../../../machinery/validation/index.js';

const actions = ['DoNotSchedule', 'ScheduleAnyway'];
const nodePolicies = ['Honor', 'Ignore'];

export function validateTopologySpreadConstraints(
  spec: PodSpec,
  path: FieldPath,
  opts: { readonly allowInvalidSelector?: boolean } = {},
): ErrorList {
  const errs: ErrorList = [];
  const constraints = spec.topologySpreadConstraints ?? [];
  constraints.forEach((c, i) => {
    const at = path.index(i);
    if (!(c.maxSkew > 0))
      errs.push(FieldError.invalid(at.child('maxSkew'), c.maxSkew, 'must be greater than zero'));
    // kube checks only that the key is there; a key no node has leaves the pod unschedulable.
    if (c.topologyKey === '') errs.push(FieldError.required(at.child('topologyKey'), 'can not be empty'));
    if (!actions.includes(c.whenUnsatisfiable))
      errs.push(FieldError.notSupported(at.child('whenUnsatisfiable'), c.whenUnsatisfiable, actions));
    // The first of two constraints on one {topologyKey, whenUnsatisfiable} pair is the one reported.
    const repeated = constraints
      .slice(i + 1)
      .some(
        (later) => later.topologyKey === c.topologyKey && later.whenUnsatisfiable === c.whenUnsatisfiable,
      );
    if (repeated)
      errs.push(
        FieldError.duplicate(
          at.child('{topologyKey, whenUnsatisfiable}'),
          `{${c.topologyKey}, ${c.whenUnsatisfiable}}`,
        ),
      );
    if (c.minDomains !== undefined) {
      if (c.minDomains <= 0)
        errs.push(FieldError.invalid(at.child('minDomains'), c.minDomains, 'must be greater than zero'));
      if (c.whenUnsatisfiable !== 'DoNotSchedule')
        errs.push(
          FieldError.invalid(
            at.child('minDomains'),
            c.minDomains,
            `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${c.whenUnsatisfiable}`,
          ),
        );
    }
    for (const field of ['nodeAffinityPolicy', 'nodeTaintsPolicy'] as const) {
      const policy = c[field];
      if (policy !== undefined && !nodePolicies.includes(policy))
        errs.push(FieldError.notSupported(at.child(field), policy, nodePolicies));
    }
    errs.push(...validateMatchLabelKeys(c.matchLabelKeys ?? [], c.labelSelector, at.child('matchLabelKeys')));
    if (opts.allowInvalidSelector !== true)
      errs.push(...validateLabelSelector(c.labelSelector, at.child('labelSelector')));
  });
  return errs;
}

/** Label names, forbidden without a selector, and none the selector already names. */
function validateMatchLabelKeys(
  keys: readonly string[],
  selector: LabelSelector | undefined,
  path: FieldPath,
): ErrorList {
  if (keys.length === 0) return [];
  const errs: ErrorList = [];
  if (selector === undefined)
    errs.push(FieldError.forbidden(path, 'must not be specified when labelSelector is not set'));
  const selected = new Set([
    ...Object.keys(selector?.matchLabels ?? {}),
    ...(selector?.matchExpressions ?? []).map((e) => e.key),
  ]);
  keys.forEach((key, i) => {
    errs.push(...validateLabelName(key, path.index(i)));
    if (selected.has(key))
      errs.push(FieldError.invalid(path.index(i), key, 'exists in both matchLabelKeys and labelSelector'));
  });
  return errs;
}

/**
 * hasInvalidTopologySpreadConstraintLabelSelector: whether a constraint's selector fails its checks,
 * which kube then skips on an update of that pod (AllowInvalidTopologySpreadConstraintLabelSelector).
 */
export function hasInvalidSpreadSelector(spec: PodSpec | undefined): boolean {
  return (spec?.topologySpreadConstraints ?? []).some(
    (c) => validateLabelSelector(c.labelSelector, FieldPath.of('')).length > 0,
  );
}
