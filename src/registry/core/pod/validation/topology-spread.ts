// validateTopologySpreadConstraints (pkg/apis/core/validation): a positive maxSkew, a topology key
// that is a label name, a known whenUnsatisfiable, minDomains only above zero and with
// DoNotSchedule, known node policies, and no two constraints on the same key and action.
import type { PodSpec } from '../../../../api/core/v1/pod.js';
import {
  FieldError,
  validateLabelName,
  type ErrorList,
  type FieldPath,
} from '../../../../machinery/validation/index.js';

const actions = ['DoNotSchedule', 'ScheduleAnyway'];
const nodePolicies = ['Honor', 'Ignore'];

export function validateTopologySpreadConstraints(spec: PodSpec, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const seen = new Set<string>();
  (spec.topologySpreadConstraints ?? []).forEach((c, i) => {
    const at = path.index(i);
    if (!(c.maxSkew > 0))
      errs.push(FieldError.invalid(at.child('maxSkew'), c.maxSkew, 'must be greater than zero'));
    if (c.topologyKey === '') errs.push(FieldError.required(at.child('topologyKey'), 'can not be empty'));
    else errs.push(...validateLabelName(c.topologyKey, at.child('topologyKey')));
    if (!actions.includes(c.whenUnsatisfiable))
      errs.push(FieldError.notSupported(at.child('whenUnsatisfiable'), c.whenUnsatisfiable, actions));
    if (c.minDomains !== undefined) {
      if (c.minDomains <= 0)
        errs.push(FieldError.invalid(at.child('minDomains'), c.minDomains, 'must be greater than zero'));
      else if (c.whenUnsatisfiable !== 'DoNotSchedule')
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
    const pair = `{${c.topologyKey}, ${c.whenUnsatisfiable}}`;
    if (seen.has(pair)) errs.push(FieldError.duplicate(at, pair));
    seen.add(pair);
  });
  return errs;
}
